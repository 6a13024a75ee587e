# cython: language_level=3, autotestdict=False, auto_pickle=False
"""Thin Cython bindings of the threes-core C engine.

This module only converts between Python values and the C engine's structs:
the rules of the game live in C (src/threes_core/), the pleasant API in the
Python package (threes/*.py). Everything that enters from Python is checked by
the C entry points, and their errors are raised as Python exceptions.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from cpython.object cimport PyObject, PyTypeObject, Py_TYPE
from operator import index as _index

cdef tuple _EMPTY = ()

from threes.errors import IllegalActionError

NUM_RANKS = TH_NUM_RANKS
NUM_KINDS = TH_NUM_KINDS
MAX_DECKS = TH_MAX_DECKS
MAX_CARDS_PER_ZONE = TH_MAX_CPZ
MIN_PLAYERS = TH_MIN_PLAYERS
MAX_PLAYERS = TH_MAX_PLAYERS
MAX_RUN_TO_BURN = TH_MAX_RUN_TO_BURN
TERMINAL_PLAYER_ID = TH_TERMINAL_PLAYER
DEFAULT_MAX_MOVES = TH_DEFAULT_MAX_MOVES
MAX_MAX_MOVES = TH_MAX_MAX_MOVES
NUM_PRESETS = TH_NUM_PRESETS
NUM_POLICIES = TH_NUM_POLICIES
MAX_THREADS = TH_MAX_THREADS
STATE_SIZE_BYTES = sizeof(th_state)

ZONE_HAND = TH_ZONE_HAND
ZONE_HAND_KNOWN = TH_ZONE_HAND_KNOWN
ZONE_FACE_UP = TH_ZONE_FACE_UP
ZONE_FACE_DOWN = TH_ZONE_FACE_DOWN
ZONE_DRAW = TH_ZONE_DRAW
ZONE_PILE = TH_ZONE_PILE
ZONE_BURNED = TH_ZONE_BURNED

_RULE_FIELDS = ("decks", "jokers", "cards_per_zone", "lower_strict", "wild", "lower", "invisible", "burn",
                "run_to_burn", "invisible_in_runs", "burner_plays_again", "pickup_then_play",
                "merge_hand_with_face_up", "start", "start_ranks", "start_suits")


def kind_text(int kind):
    """Two-character text of card kind `kind` (0..53), as the C engine writes it."""
    cdef char buf[3]
    if kind < 0 or kind >= TH_NUM_KINDS:
        raise ValueError(f"card kind must be in 0..{TH_NUM_KINDS - 1}, not {kind}")
    th_kind_text(kind, buf)
    return buf[:2].decode("ascii")


def rng_outputs(uint64_t seed, int n):
    """The first n outputs of the engine's PRNG (xoshiro256** seeded by
    splitmix64) for a seed; for checking it against the published algorithm."""
    cdef th_rng r
    th_rng_seed(&r, seed)
    return [th_rng_next(&r) for _ in range(n)]


cdef dict _rules_to_dict(const th_rules *r):
    return {
        "decks": r.decks, "jokers": r.jokers, "cards_per_zone": r.cards_per_zone,
        "lower_strict": r.lower_strict, "wild": r.wild, "lower": r.lower, "invisible": r.invisible,
        "burn": r.burn, "run_to_burn": r.run_to_burn, "invisible_in_runs": r.invisible_in_runs,
        "burner_plays_again": r.burner_plays_again, "pickup_then_play": r.pickup_then_play,
        "merge_hand_with_face_up": r.merge_hand_with_face_up, "start": r.start,
        "start_ranks": tuple(r.start_ranks[i] for i in range(r.num_start_ranks)),
        "start_suits": tuple(r.start_suits[i] for i in range(r.num_start_suits)),
    }


cdef int _rules_from_dict(dict d, th_rules *r) except -1:
    memset(r, 0, sizeof(th_rules))
    try:
        r.decks = d["decks"]
        r.jokers = d["jokers"]
        r.cards_per_zone = d["cards_per_zone"]
        r.lower_strict = d["lower_strict"]
        r.wild = d["wild"]
        r.lower = d["lower"]
        r.invisible = d["invisible"]
        r.burn = d["burn"]
        r.run_to_burn = d["run_to_burn"]
        r.invisible_in_runs = d["invisible_in_runs"]
        r.burner_plays_again = d["burner_plays_again"]
        r.pickup_then_play = d["pickup_then_play"]
        r.merge_hand_with_face_up = d["merge_hand_with_face_up"]
        r.start = d["start"]
        ranks = tuple(d["start_ranks"])
        suits = tuple(d["start_suits"])
        if len(ranks) > TH_NUM_RANKS or len(suits) > 4:
            raise ValueError("too many start ranks or start suits")
        r.num_start_ranks = len(ranks)
        r.num_start_suits = len(suits)
        for i, x in enumerate(ranks):
            r.start_ranks[i] = x
        for i, x in enumerate(suits):
            r.start_suits[i] = x
    except OverflowError as exc:
        raise ValueError(f"a rule value is out of range: {exc}") from None
    except KeyError as exc:
        raise ValueError(f"rule {exc} is missing") from None
    return 0


cdef _raise(th_error *e):
    msg = e.msg.decode("utf-8", "replace")
    if e.code == TH_ERR_ILLEGAL or e.code == TH_ERR_ACTION:
        raise IllegalActionError(msg)
    raise ValueError(msg)


def rules_preset(int preset):
    """The raw fields of C preset number `preset` (0 threes, 1 classic, 2 dutch)."""
    cdef th_rules r
    if th_rules_preset(preset, &r) != 0:
        raise ValueError(f"unknown preset number {preset}")
    return _rules_to_dict(&r)


def rules_validate(dict raw, num_players=0):
    """Raises ValueError with the C engine's message if the rules (and, when
    num_players > 0, the player count) are not valid."""
    cdef th_rules r
    cdef th_error e
    _rules_from_dict(raw, &r)
    if not 0 <= num_players <= 255:
        raise ValueError(f"num_players must be between {TH_MIN_PLAYERS} and {TH_MAX_PLAYERS}, not {num_players}")
    if th_rules_validate(&r, num_players, &e) != TH_OK:
        _raise(&e)


def rules_max_players(dict raw):
    cdef th_rules r
    _rules_from_dict(raw, &r)
    return th_rules_max_players(&r)


def num_distinct_actions(dict raw):
    cdef th_rules r
    _rules_from_dict(raw, &r)
    return th_num_distinct_actions(&r)


def decode_action(dict raw, action):
    """(kind, source, rank, count, slot, face_up) of an id, without a state."""
    cdef th_rules r
    cdef th_move m
    _rules_from_dict(raw, &r)
    if not -1 <= action <= 2**20 or th_decode_action(&r, action, &m) != TH_OK:
        raise IllegalActionError(f"action {action} is out of range: ids are 0..{th_num_distinct_actions(&r) - 1}")
    return _move_tuple(&m)


def encode_move(dict raw, kind, rank, count, slot, face_up):
    """The id of a move, or -1 when it does not fit the rules."""
    cdef th_rules r
    cdef th_move m
    _rules_from_dict(raw, &r)
    memset(&m, 0, sizeof(th_move))
    if not (0 <= kind <= 3 and 0 <= rank < 256 and 0 <= count < 256 and 0 <= slot < 256):
        return -1
    m.kind = kind
    m.rank = rank
    m.count = count
    m.slot = slot
    if kind == 3:
        face_up = tuple(face_up)
        if len(face_up) != r.cards_per_zone:
            return -1
        for i, x in enumerate(face_up):
            if not 0 <= x < TH_NUM_RANKS:
                return -1
            m.face_up[i] = x
    return th_encode_move(&r, &m)


cdef tuple _move_tuple(th_move *m):
    face_up = tuple(m.face_up[i] for i in range(m.count)) if m.kind == 3 else ()
    return (m.kind, m.source, m.rank, m.count, m.slot, face_up)


cdef class StateBase:
    """The C state, held by value. Use threes.State; build one with
    threes.Game.new_initial_state() or threes.State.from_dict()."""

    def __cinit__(self):
        # A state made without _deal/_setup (StateBase.__new__) is an empty,
        # finished game with valid rules: every method raises or returns
        # nothing rather than reading garbage.
        # _history stays None until an action is applied (a clone shares
        # its source's list), so that clone() allocates nothing but itself.
        self._hlen = 0
        th_rules_preset(0, &self.s.rules)
        memset(self.s.loc, TH_LOC_ABSENT, sizeof(self.s.loc))
        memset(self.s.down, TH_NO_CARD, sizeof(self.s.down))
        self.s.eff_top = TH_OPEN
        self.s.run_rank = TH_NO_RANK
        self.s.phase = TH_PHASE_OVER
        self.s.current = 0xFF

    def __init__(self, *args, **kwargs):
        raise TypeError("a State is made by Game.new_initial_state(), State.from_dict() or clone()")

    # ---------------------------------------------------------- creation --
    @classmethod
    def _deal(cls, dict raw_rules, int num_players, int dealer, uint32_t max_moves, uint64_t seed):
        cdef th_rules r
        cdef th_error e
        cdef StateBase st = cls.__new__(cls)
        _rules_from_dict(raw_rules, &r)
        if th_state_deal(&st.s, &r, num_players, dealer, max_moves, seed, &e) != TH_OK:
            _raise(&e)
        return st

    @classmethod
    def _setup(cls, dict raw_rules, int num_players, int dealer, uint32_t max_moves, list cards,
               int phase, int current, uint32_t move_count, bint truncated, finish, history):
        """cards: (zone, seat, kind, slot) tuples; pile and draw pile bottom first."""
        cdef th_rules r
        cdef th_error e
        cdef uint8_t fin[12]
        cdef StateBase st = cls.__new__(cls)
        _rules_from_dict(raw_rules, &r)
        if th_setup_begin(&st.s, &r, num_players, dealer, max_moves, &e) != TH_OK:
            _raise(&e)
        for zone, seat, kind, slot in cards:
            if th_setup_add(&st.s, zone, seat, kind, slot, &e) != TH_OK:
                _raise(&e)
        finish = list(finish)
        if len(finish) > num_players:
            raise ValueError(f"the finishing order lists {len(finish)} seats in a {num_players}-player game")
        for i, q in enumerate(finish):
            if not 0 <= q < num_players:
                raise ValueError(f"the finishing order names seat {q}, not in 0..{num_players - 1}")
            fin[i] = q
        if th_setup_finish(&st.s, phase, current, move_count, truncated, fin, len(finish), &e) != TH_OK:
            _raise(&e)
        st._history = list(history)
        st._hlen = len(st._history)
        return st

    def clone(self):
        """An independent copy (the C state is copied by value)."""
        cdef PyTypeObject *t = Py_TYPE(self)
        cdef StateBase c = <StateBase>t.tp_new(<type>t, <PyObject *>_EMPTY, NULL)
        c.s = self.s
        # The history list is shared copy-on-write: a state appends in place
        # only while it is at the list's tip (see apply_action).
        c._history = self._history
        c._hlen = self._hlen
        return c

    # ------------------------------------------------------------ queries --
    def num_players(self):
        return self.s.num_players

    def num_distinct_actions(self):
        return th_num_distinct_actions(&self.s.rules)

    def max_game_length(self):
        return self.s.max_moves

    def move_number(self):
        """Actions applied since the deal, swap decisions included."""
        return self.s.move_count

    def current_player(self):
        """The seat to move, or TERMINAL_PLAYER_ID (-4) when the game is over."""
        if self.s.phase == TH_PHASE_OVER:
            return TH_TERMINAL_PLAYER
        return self.s.current

    def is_terminal(self):
        return self.s.phase == TH_PHASE_OVER

    def is_truncated(self):
        """True when the game ended at the move cap without a normal finish."""
        return self.s.truncated != 0

    def is_chance_node(self):
        return False

    def is_simultaneous_node(self):
        return False

    def legal_actions(self, player=None):
        """Legal action ids, sorted ascending; empty when the game is over."""
        cdef uint16_t buf[TH_MAX_DISTINCT_ACTIONS]
        cdef int n, i
        if player is not None and player != self.current_player():
            return []
        n = th_legal_actions(&self.s, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, action):
        a = _as_action(action)
        if a < 0 or a >= th_num_distinct_actions(&self.s.rules):
            return False
        return th_is_legal(&self.s, a) != 0

    def apply_action(self, action):
        """Applies a legal action; anything else raises and leaves the state as it was."""
        cdef th_error e
        a = _as_action(action)
        if a < -2**31 or a >= 2**31:
            raise IllegalActionError(f"action {a} is out of range: ids are 0..{th_num_distinct_actions(&self.s.rules) - 1}")
        if th_apply_action(&self.s, a, &e) != TH_OK:
            _raise(&e)
        h = self._history
        if h is None:
            self._history = [a]
        else:
            if len(h) != self._hlen:
                h = self._history = h[:self._hlen]
            h.append(a)
        self._hlen += 1

    def returns(self):
        """One value per seat: (N-1-2k)/(N-1) for place k; all 0 before the end."""
        cdef double out[12]
        th_returns(&self.s, out)
        return [out[i] for i in range(self.s.num_players)]

    def finish_order(self):
        """Seats in the order they went out; when the game is over normally the
        shithead is last. A truncated game lists only the players out."""
        return [self.s.finish[i] for i in range(self.s.num_out)]

    def history(self):
        """Action ids applied to this state (since the deal, or since the
        position was built by from_dict)."""
        return [] if self._history is None else self._history[:self._hlen]

    def _phase_id(self):
        return self.s.phase

    def _dealer(self):
        return self.s.dealer

    def _raw_rules(self):
        return _rules_to_dict(&self.s.rules)

    def _decode(self, action):
        cdef th_move m
        a = _as_action(action)
        if a < 0 or a >= th_num_distinct_actions(&self.s.rules):
            raise IllegalActionError(f"action {a} is out of range: ids are 0..{th_num_distinct_actions(&self.s.rules) - 1}")
        th_state_decode_action(&self.s, a, &m)
        return _move_tuple(&m)

    def _playable(self, int rank):
        return th_playable(&self.s, rank) != 0

    def _effective_top(self):
        """Rank index of the pile's effective top, or None when the pile is open."""
        return None if self.s.eff_top == TH_OPEN else self.s.eff_top

    def _run(self):
        """(rank index or None, length) of the run at the top of the pile."""
        return (None if self.s.run_rank == TH_NO_RANK else self.s.run_rank, self.s.run_len)

    def _rollout_both(self, policies, uint64_t seed, bint check=True):
        """Plays game 0 of a batch seeded `seed` from this state twice: with
        the fast counts-only rollout and on the full state (checking every
        invariant after every move when `check`). Returns ((finish, moves,
        truncated) fast, (finish, moves, truncated) full, final full State)."""
        cdef th_state a = self.s
        cdef th_state b = self.s
        cdef th_rng ra, rb
        cdef uint8_t pol[12]
        cdef uint32_t ma, mb
        policies = list(policies)
        if len(policies) != self.s.num_players:
            raise ValueError("one policy per seat")
        for q, p in enumerate(policies):
            if not 0 <= p < TH_NUM_POLICIES:
                raise ValueError(f"policy {p} does not exist")
            pol[q] = p
        th_batch_rng(seed, 0, &ra)
        th_batch_rng(seed, 0, &rb)
        with nogil:
            ma = th_rollout(&a, pol, &ra)
            mb = th_rollout_full(&b, pol, &rb, check)
        if mb == 0xFFFFFFFF:
            raise AssertionError("an invariant failed during the full rollout")
        cdef StateBase out = type(self).__new__(type(self))
        out.s = b
        fa = [a.finish[i] for i in range(a.num_out)]
        fb = [b.finish[i] for i in range(b.num_out)]
        return (fa, ma, bool(a.truncated)), (fb, mb, bool(b.truncated)), out

    def _policy_action(self, int policy, uint64_t seed):
        """The action the C policy picks here, its rng seeded with `seed`."""
        cdef th_rng rng
        if not 0 <= policy < TH_NUM_POLICIES:
            raise ValueError(f"policy {policy} does not exist")
        if self.s.phase == TH_PHASE_OVER:
            raise ValueError("the game is over: no action to choose")
        th_rng_seed(&rng, seed)
        return th_policy_action(&self.s, policy, &rng)

    def _copy_bench(self, uint64_t n):
        """Copies the C state n times in C (a benchmark helper); returns a checksum."""
        cdef th_state scratch[2]
        cdef uint64_t r
        with nogil:
            r = th_state_copy_bench(&self.s, scratch, n)
        return r

    def _check(self):
        """Runs the C invariant check; raises AssertionError if it fails."""
        cdef th_error e
        if th_state_check(&self.s, &e) != TH_OK:
            raise AssertionError(e.msg.decode("utf-8", "replace"))

    def _position_key(self):
        """Bytes that are equal exactly when two positions are (history aside)."""
        cdef th_state c
        th_state_canonical(&self.s, &c)
        return (<char *>&c)[:sizeof(th_state)]

    def _snapshot(self):
        """Every zone as card kinds in one pass: (hands, known, face_up,
        face_down, pile, draw, burned); hands include the known cards."""
        cdef int n = self.s.num_players, kind, c, l, q, k, i
        self._require_setup()
        hands = [[] for _ in range(n)]
        known = [[] for _ in range(n)]
        up = [[] for _ in range(n)]
        burned = []
        for kind in range(TH_NUM_KINDS):
            for c in range(self.s.rules.decks):
                l = self.s.loc[c * 64 + kind]
                if l == TH_LOC_ABSENT:
                    continue
                q = l & 0x0F
                if (l & 0x70) == TH_LOC_HAND:
                    hands[q].append(kind)
                    if l & TH_LOC_KNOWN:
                        known[q].append(kind)
                elif (l & 0x70) == TH_LOC_FACE_UP:
                    up[q].append(kind)
                elif l == TH_LOC_BURNED:
                    burned.append(kind)
        down = [[None if self.s.down[q][k] == TH_NO_CARD else th_card_kind(self.s.down[q][k])
                 for k in range(self.s.rules.cards_per_zone)] for q in range(n)]
        pile = [th_card_kind(self.s.pile[i]) for i in range(self.s.pile_len)]
        draw = [th_card_kind(self.s.draw[i]) for i in range(self.s.draw_len)]
        return hands, known, up, down, pile, draw, burned

    # ------------------------------------------------------------- zones --
    cdef int _require_setup(self) except -1:
        if self.s.num_players == 0:
            raise ValueError("this State was never set up (made by __new__ or a hand-built pickle): "
                             "use Game.new_initial_state(), State.from_dict() or clone()")
        return 0

    cdef list _kinds_at(self, int code):
        cdef int kind, c
        out = []
        for kind in range(TH_NUM_KINDS):
            for c in range(self.s.rules.decks):
                if self.s.loc[c * 64 + kind] == code:
                    out.append(kind)
        return out

    cdef int _seat(self, seat) except -1:
        self._require_setup()
        q = _as_action(seat)
        if not 0 <= q < self.s.num_players:
            raise ValueError(f"seat must be in 0..{self.s.num_players - 1}, not {q}")
        return q

    def _hand(self, seat):
        cdef int q = self._seat(seat)
        known = self._kinds_at(TH_LOC_HAND | TH_LOC_KNOWN | q)
        return sorted(self._kinds_at(TH_LOC_HAND | q) + known)

    def _known(self, seat):
        return self._kinds_at(TH_LOC_HAND | TH_LOC_KNOWN | self._seat(seat))

    def _face_up(self, seat):
        return self._kinds_at(TH_LOC_FACE_UP | self._seat(seat))

    def _face_down(self, seat):
        cdef int q = self._seat(seat)
        return [None if self.s.down[q][k] == TH_NO_CARD else th_card_kind(self.s.down[q][k])
                for k in range(self.s.rules.cards_per_zone)]

    def _pile(self):
        return [th_card_kind(self.s.pile[i]) for i in range(self.s.pile_len)]

    def _draw(self):
        return [th_card_kind(self.s.draw[i]) for i in range(self.s.draw_len)]

    def _burned(self):
        return self._kinds_at(TH_LOC_BURNED)

    def _sizes(self, seat):
        """(hand, face-up, face-down) card counts of a seat."""
        cdef int q = self._seat(seat)
        return (self.s.hand_len[q], self.s.up_len[q], self.s.down_len[q])

    def draw_pile_size(self):
        return self.s.draw_len


cdef inline object _as_action(object x):
    if type(x) is int:
        return x
    if isinstance(x, bool):
        raise TypeError("expected an int, not bool")
    try:
        return _index(x)
    except TypeError:
        raise TypeError(f"expected an int, not {type(x).__name__}") from None


def batch_seed(uint64_t seed, uint64_t i):
    """The seed of game i of a rollout batch seeded with `seed`."""
    return th_batch_seed(seed, i)


def run_rollouts(source, int num_players, policies, uint64_t seed, int64_t n, int threads,
                 int8_t[:, ::1] places, uint32_t[::1] moves, uint8_t[::1] truncated,
                 int dealer=-1, uint32_t max_moves=0, int observer=-1, int64_t first=0):
    """Plays n games in C with the GIL released. `source` is a StateBase (every
    game from that position) or a raw rules dict (fresh deals). Output arrays:
    places (n, num_players), moves (n,), truncated (n,)."""
    cdef th_batch b
    cdef th_error e
    cdef StateBase st
    cdef th_state start  # a private copy: other threads may change the state meanwhile
    cdef int rc
    memset(&b, 0, sizeof(th_batch))
    if n < 0:
        raise ValueError(f"the number of games must be >= 0, not {n}")
    if places.shape[0] != n or places.shape[1] != num_players or moves.shape[0] != n or truncated.shape[0] != n:
        raise ValueError("output arrays do not match n and num_players")
    if isinstance(source, StateBase):
        st = source
        if st.s.num_players != num_players:
            raise ValueError("num_players does not match the state")
        start = st.s
        b.start = &start
    else:
        _rules_from_dict(source, &b.rules)
        b.num_players = num_players
        b.dealer = dealer
        b.max_moves = max_moves
    policies = list(policies)
    if len(policies) != num_players:
        raise ValueError(f"one policy per seat: {num_players} needed, {len(policies)} given")
    for q, pol in enumerate(policies):
        if not 0 <= pol < TH_NUM_POLICIES:
            raise ValueError(f"policy {pol} does not exist")
        b.policies[q] = pol
    if observer >= 0:
        if observer >= 256:
            raise ValueError(f"observer must be a seat in 0..{num_players - 1}, not {observer}")
        b.determinize = 1
        b.observer = observer
    b.seed = seed
    b.n = n
    b.first = first
    if n > 0:
        b.places = &places[0, 0]
        b.moves = &moves[0]
        b.truncated = &truncated[0]
    with nogil:
        rc = th_rollouts(&b, threads, &e)
    if rc != TH_OK:
        _raise(&e)


# ------------------------------------------------------------ imperfect information --

ISMCTS_NODE_BYTES = sizeof(th_ismcts_node)


def observation_size(int num_players):
    """Length of the observation tensor for num_players (see observation.h)."""
    if not TH_MIN_PLAYERS <= num_players <= TH_MAX_PLAYERS:
        raise ValueError(f"num_players must be between {TH_MIN_PLAYERS} and {TH_MAX_PLAYERS}, not {num_players}")
    return th_obs_size(num_players)


def observation_tensor_into(StateBase st, int observer, float[::1] out):
    """Writes the observation tensor of `observer` into out (float32, contiguous)."""
    cdef th_error e
    st._require_setup()
    if out.shape[0] != th_obs_size(st.s.num_players):
        raise ValueError(f"the output needs {th_obs_size(st.s.num_players)} floats, not {out.shape[0]}")
    if th_observation_tensor(&st.s, observer, &out[0], &e) != TH_OK:
        _raise(&e)


def hidden_count(StateBase st, int observer):
    """Cards hidden from `observer`: other hands' unknown cards, face-down cards, the draw pile."""
    st._require_setup()
    if not 0 <= observer < st.s.num_players:
        raise ValueError(f"observer must be a seat in 0..{st.s.num_players - 1}, not {observer}")
    return th_hidden_count(&st.s, observer)


def resample_into(StateBase st, StateBase out, int observer, uint64_t seed):
    """out (a fresh clone of st) gets st's position with the cards hidden from
    `observer` dealt again by th_resample, with an rng seeded from `seed`."""
    cdef th_rng rng
    cdef th_error e
    st._require_setup()
    out.s = st.s
    out._history = st._history
    out._hlen = st._hlen
    th_rng_seed(&rng, seed)
    if th_resample(&out.s, observer, &rng, &e) != TH_OK:
        _raise(&e)


def ismcts_search(StateBase st, uint8_t[::1] arena, uint32_t iterations, double time_limit,
                  double exploration, int rollout_policy, uint64_t seed):
    """Runs th_ismcts_search with the GIL released. `arena` holds the tree
    (a multiple of ISMCTS_NODE_BYTES). Returns (best_action, iterations run,
    nodes used, [(action, visits, mean return) for each root child])."""
    cdef th_ismcts_config cfg
    cdef th_ismcts_stats stats
    cdef th_error e
    cdef th_state root
    cdef int rc, nc = 0, i
    cdef uint32_t capacity
    cdef uint16_t[::1] acts
    cdef uint32_t[::1] vis
    cdef double[::1] vals
    st._require_setup()
    if not 0 <= rollout_policy < TH_NUM_POLICIES:
        raise ValueError(f"rollout policy {rollout_policy} does not exist")
    capacity = <uint32_t>(arena.shape[0] // sizeof(th_ismcts_node))
    if capacity < 1:
        raise ValueError("the tree needs room for at least one node")
    import numpy as _np
    acts = _np.zeros(TH_MAX_DISTINCT_ACTIONS, dtype=_np.uint16)
    vis = _np.zeros(TH_MAX_DISTINCT_ACTIONS, dtype=_np.uint32)
    vals = _np.zeros(TH_MAX_DISTINCT_ACTIONS, dtype=_np.float64)
    cfg.iterations = iterations
    cfg.time_limit = time_limit
    cfg.exploration = exploration
    cfg.rollout_policy = <uint8_t>rollout_policy
    cfg.seed = seed
    root = st.s  # a private copy: other threads may change the state meanwhile
    with nogil:
        rc = th_ismcts_search(&root, &cfg, <th_ismcts_node *>&arena[0], capacity, &stats,
                              &acts[0], &vis[0], &vals[0], &nc, &e)
    if rc != TH_OK:
        _raise(&e)
    children = [(int(acts[i]), int(vis[i]), float(vals[i])) for i in range(nc)]
    return stats.best_action, stats.iterations, stats.nodes, children


# ------------------------------------------------------------------- Three Thirteen --

TT_NUM_KINDS = TH3_NUM_KINDS
TT_NUM_ACTIONS = TH3_NUM_ACTIONS
TT_FIRST_DISCARD = TH3_FIRST_DISCARD
TT_FIRST_GO_OUT = TH3_FIRST_GO_OUT
TT_ROUNDS = TH3_ROUNDS
TT_MIN_PLAYERS = TH3_MIN_PLAYERS
TT_MAX_PLAYERS = TH3_MAX_PLAYERS
TT_MAX_HAND = TH3_MAX_HAND
TT_NUM_POLICIES = TH3_NUM_POLICIES


cdef th3_meld_options _tt_meld(bint ace_either, bint all_wild_melds, bint wild_penalty_20):
    cdef th3_meld_options o
    o.ace_either = ace_either
    o.all_wild_melds = all_wild_melds
    o.wild_penalty_20 = wild_penalty_20
    return o


def tt_min_deadwood(ranks, suits, int wild_rank, bint ace_either, bint all_wild_melds, bint wild_penalty_20):
    """(deadwood, [(type, [card indexes])...], [deadwood card indexes]) of a hand
    given as ranks (1..13, 0 = joker) and suits (0..3)."""
    cdef uint8_t r[14]
    cdef uint8_t su[14]
    cdef th3_arrangement a
    cdef th_error e
    cdef th3_meld_options o = _tt_meld(ace_either, all_wild_melds, wild_penalty_20)
    cdef int n = len(ranks), i, j, pos = 0
    if n != len(suits):
        raise ValueError("ranks and suits differ in length")
    if n > TH3_MAX_HAND:
        raise ValueError(f"a hand holds at most {TH3_MAX_HAND} cards, not {n}")
    for i in range(n):
        if not 0 <= ranks[i] <= 13 or not 0 <= suits[i] <= 3:
            raise ValueError(f"card {i}: rank {ranks[i]} or suit {suits[i]} out of range")
        r[i] = ranks[i]
        su[i] = suits[i]
    if th3_min_deadwood(r, su, n, wild_rank, &o, &a, &e) != TH_OK:
        _raise(&e)
    melds = []
    for i in range(a.num_melds):
        melds.append(("set" if a.meld_type[i] == 0 else "run", [a.order[pos + j] for j in range(a.meld_len[i])]))
        pos += a.meld_len[i]
    dead = [a.order[pos + j] for j in range(a.num_deadwood)]
    return a.deadwood, melds, dead


def tt_card_value(int rank, int wild_rank, bint ace_either, bint wild_penalty_20):
    cdef th3_meld_options o = _tt_meld(ace_either, 1, wild_penalty_20)
    return th3_card_value(rank, wild_rank, &o)


cdef class TTStateBase:
    """The C state of a Three Thirteen game, held by value (threes.three_thirteen.State)."""

    def __cinit__(self):
        self.s.phase = TH3_PHASE_OVER
        self.s.current = TH3_NO_SEAT

    @classmethod
    def _new(cls, int num_players, dict opts, uint64_t seed, uint32_t max_moves):
        cdef th3_options o
        cdef th_error e
        cdef TTStateBase st = cls.__new__(cls)
        th3_options_default(num_players if 2 <= num_players <= 8 else 2, &o)
        if opts.get("decks") is not None:
            o.decks = opts["decks"]
        o.jokers = opts["jokers"]
        o.meld.ace_either = opts["ace_either"]
        o.meld.all_wild_melds = opts["all_wild_melds"]
        o.meld.wild_penalty_20 = opts["wild_penalty_20"]
        o.rediscard_taken = opts["rediscard_taken"]
        o.go_out_first_turn = opts["go_out_first_turn"]
        if th3_new_game(&st.s, &o, num_players, seed, max_moves, &e) != TH_OK:
            _raise(&e)
        st._history = []
        return st

    def _options(self):
        return {"decks": self.s.opt.decks, "jokers": self.s.opt.jokers, "ace_either": self.s.opt.meld.ace_either,
                "all_wild_melds": self.s.opt.meld.all_wild_melds, "wild_penalty_20": self.s.opt.meld.wild_penalty_20,
                "rediscard_taken": self.s.opt.rediscard_taken, "go_out_first_turn": self.s.opt.go_out_first_turn}

    def clone(self):
        cdef TTStateBase c = type(self).__new__(type(self))
        c.s = self.s
        c._history = list(self._history) if self._history is not None else []
        return c

    def num_players(self):
        return self.s.num_players

    def current_player(self):
        return TH_TERMINAL_PLAYER if self.s.phase == TH3_PHASE_OVER else self.s.current

    def is_terminal(self):
        return self.s.phase == TH3_PHASE_OVER

    def is_truncated(self):
        return bool(self.s.truncated)

    def legal_actions(self):
        cdef uint16_t buf[110]
        cdef int n = th3_legal_actions(&self.s, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, action):
        a = _index(action)
        return -2**31 <= a < 2**31 and th3_is_legal(&self.s, a) != 0

    def apply_action(self, action):
        cdef th_error e
        a = _index(action)
        if not 0 <= a < TH3_NUM_ACTIONS:
            raise IllegalActionError(f"action {a} is out of range: ids are 0..{TH3_NUM_ACTIONS - 1}")
        if th3_apply_action(&self.s, a, &e) != TH_OK:
            _raise(&e)
        if self._history is None:
            self._history = []
        self._history.append(a)

    def history(self):
        return list(self._history or [])

    def returns(self):
        cdef double out[8]
        th3_returns(&self.s, out)
        return [out[i] for i in range(self.s.num_players)]

    def _round(self):
        return self.s.round

    def _phase_id(self):
        return self.s.phase

    def _fields(self):
        """Every field, for to_dict, observations and the display (kinds for cards)."""
        cdef int q, k
        n = self.s.num_players
        return {
            "num_players": n, "round": self.s.round, "dealer": self.s.dealer,
            "current": -1 if self.s.phase == TH3_PHASE_OVER else self.s.current, "phase": self.s.phase,
            "out_seat": -1 if self.s.out_seat == TH3_NO_SEAT else self.s.out_seat,
            "final_turns": self.s.final_turns, "out_mask": self.s.out_mask,
            "taken_kind": -1 if self.s.taken_kind == TH3_NO_KIND else self.s.taken_kind,
            "truncated": bool(self.s.truncated), "move_count": self.s.move_count, "max_moves": self.s.max_moves,
            "turns": [self.s.turns[q] for q in range(n)],
            "hands": [[k for k in range(TH3_NUM_KINDS) for _ in range(self.s.hand[q][k])] for q in range(n)],
            "stock": [self.s.stock[k] for k in range(self.s.stock_len)],
            "discard": [self.s.discard[k] for k in range(self.s.discard_len)],
            "round_scores": [[self.s.round_score[r][q] for q in range(n)] for r in range(self.s.round - 1 + (self.s.phase == TH3_PHASE_OVER and not self.s.truncated))],
            "totals": [self.s.total[q] for q in range(n)],
            "rng": [self.s.rng.s[k] for k in range(4)],
        }

    @classmethod
    def _from_fields(cls, int num_players, dict opts, dict f):
        """Builds a state from _fields()-shaped data; th3_state_check decides if it is possible."""
        cdef TTStateBase st = cls.__new__(cls)
        cdef th_error e
        cdef int q, k, i
        if not 2 <= num_players <= 8:
            raise ValueError(f"num_players must be between 2 and 8, not {num_players}")
        memset(&st.s, 0, sizeof(th3_state))
        st.s.num_players = num_players
        st.s.opt.decks = opts["decks"]
        st.s.opt.jokers = opts["jokers"]
        st.s.opt.meld.ace_either = opts["ace_either"]
        st.s.opt.meld.all_wild_melds = opts["all_wild_melds"]
        st.s.opt.meld.wild_penalty_20 = opts["wild_penalty_20"]
        st.s.opt.rediscard_taken = opts["rediscard_taken"]
        st.s.opt.go_out_first_turn = opts["go_out_first_turn"]
        st.s.round = f["round"]
        st.s.dealer = f["dealer"]
        st.s.phase = f["phase"]
        st.s.current = TH3_NO_SEAT if f["current"] < 0 else f["current"]
        st.s.out_seat = TH3_NO_SEAT if f["out_seat"] < 0 else f["out_seat"]
        st.s.final_turns = f["final_turns"]
        st.s.out_mask = f["out_mask"]
        st.s.taken_kind = TH3_NO_KIND if f["taken_kind"] < 0 else f["taken_kind"]
        st.s.truncated = f["truncated"]
        st.s.move_count = f["move_count"]
        st.s.max_moves = f["max_moves"]
        for k in range(4):
            st.s.rng.s[k] = f["rng"][k]
        if len(f["hands"]) != num_players or len(f["turns"]) != num_players or len(f["totals"]) != num_players:
            raise ValueError("hands, turns and totals need one entry per seat")
        for q in range(num_players):
            st.s.turns[q] = f["turns"][q]
            st.s.total[q] = f["totals"][q]
            if len(f["hands"][q]) > TH3_MAX_HAND:
                raise ValueError(f"seat {q} holds {len(f['hands'][q])} cards: at most {TH3_MAX_HAND}")
            for k in f["hands"][q]:
                if not 0 <= k < TH3_NUM_KINDS:
                    raise ValueError(f"unknown card kind {k}")
                st.s.hand[q][k] += 1
                st.s.hand_len[q] += 1
        for name, arr_len in (("stock", len(f["stock"])), ("discard", len(f["discard"]))):
            if arr_len > TH3_MAX_CARDS:
                raise ValueError(f"the {name} is too long")
        for i, k in enumerate(f["stock"]):
            st.s.stock[i] = k
        st.s.stock_len = len(f["stock"])
        for i, k in enumerate(f["discard"]):
            st.s.discard[i] = k
        st.s.discard_len = len(f["discard"])
        if len(f["round_scores"]) > TH3_ROUNDS:
            raise ValueError("more round scores than rounds")
        for i, row in enumerate(f["round_scores"]):
            for q in range(num_players):
                st.s.round_score[i][q] = row[q]
        if th3_state_check(&st.s, &e) != TH_OK:
            _raise(&e)
        st._history = []
        return st

    def _deadwood(self, int seat):
        if not 0 <= seat < self.s.num_players:
            raise ValueError(f"seat must be in 0..{self.s.num_players - 1}, not {seat}")
        return th3_hand_deadwood(&self.s, seat)

    def _resample(self, int observer, uint64_t seed):
        cdef th_rng rng
        cdef th_error e
        cdef TTStateBase c = self.clone()
        th_rng_seed(&rng, seed)
        if th3_resample(&c.s, observer, &rng, &e) != TH_OK:
            _raise(&e)
        return c

    def _round_margin(self, int round):
        """th3_round_margin of a scored round (1..11), for search."""
        cdef double out[8]
        cdef int q
        if not 1 <= round <= TH3_ROUNDS or round > self.s.round or (round == self.s.round and
                                                                      self.s.phase != TH3_PHASE_OVER):
            raise ValueError(f"round {round} has not been scored")
        th3_round_margin(&self.s, round, out)
        return [out[q] for q in range(self.s.num_players)]

    def _policy_action(self, int policy, uint64_t seed):
        cdef th_rng rng
        if not 0 <= policy < TH3_NUM_POLICIES:
            raise ValueError(f"policy {policy} does not exist")
        if self.s.phase == TH3_PHASE_OVER:
            raise ValueError("the game is over: no action to choose")
        th_rng_seed(&rng, seed)
        return th3_policy_action(&self.s, policy, &rng)

    def _check(self):
        cdef th_error e
        if th3_state_check(&self.s, &e) != TH_OK:
            _raise(&e)


def tt_rollouts(TTStateBase start, policies, uint64_t seed, int64_t n, int32_t[:, ::1] totals,
                uint32_t[::1] moves, uint8_t[::1] truncated, double[:, ::1] returns, int observer=-1,
                bint round_only=False):
    """n games from `start` (each resampled from `observer`'s view when >= 0),
    game i with rng th_batch_rng(seed, i), with the GIL released per game.
    round_only: play to the end of the current round only; returns are then
    the round's score margins (th3_round_margin), for search."""
    cdef th3_state s
    cdef th_rng rng
    cdef uint8_t pol[8]
    cdef double ret[8]
    cdef int64_t i
    cdef int q, np_ = start.s.num_players, r0 = start.s.round
    cdef uint32_t m
    policies = list(policies)
    if len(policies) != np_:
        raise ValueError(f"one policy per seat: {np_} needed")
    for q in range(np_):
        if not 0 <= policies[q] < TH3_NUM_POLICIES:
            raise ValueError(f"policy {policies[q]} does not exist")
        pol[q] = policies[q]
    if observer >= np_:
        raise ValueError(f"observer must be a seat in 0..{np_ - 1}, not {observer}")
    for i in range(n):
        s = start.s
        th_batch_rng(seed, <uint64_t>i, &rng)
        with nogil:
            if observer >= 0:
                th3_resample(&s, observer, &rng, NULL)
            if round_only:
                m = th3_rollout_round(&s, pol, &rng)
            else:
                m = th3_rollout(&s, pol, &rng)
        if round_only:
            th3_round_margin(&s, r0, ret)
        else:
            th3_returns(&s, ret)
        for q in range(np_):
            totals[i, q] = s.total[q]
            returns[i, q] = ret[q]
        moves[i] = m
        truncated[i] = s.truncated


def tt_bench_solver(uint64_t seed, int hands, bint solve=True):
    """th3_bench_solver with the GIL released (a benchmark helper)."""
    cdef uint64_t r
    with nogil:
        r = th3_bench_solver(seed, hands, solve)
    return r
