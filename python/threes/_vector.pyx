# cython: language_level=3, autotestdict=False, auto_pickle=False, boundscheck=False, wraparound=False
"""Thin Cython binding of the C vector env (src/threes_core/common/vector.h),
for every game with a C interface (th_game): threes.vector gives it its
Pythonic, Gymnasium-shaped API.

VecCore allocates every buffer once, as NumPy arrays, and each reset/step is
one C call with the GIL released that writes into them. Everything that enters
from Python (the game's state, the settings, the actions) is checked before C
sees it or by the C entry points, whose errors are raised as Python exceptions
with nothing changed.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

from threes._common cimport th_game, th_error, TH_OK, TH_ERR_ILLEGAL, TH_MAX_PLAYERS
from threes._engine cimport raise_error
cimport numpy as cnp
import numpy as np

from threes._engine import IllegalActionError

cnp.import_array()

cdef extern from "common/pool.h" nogil:
    ctypedef struct th_pool:
        pass
    th_pool *th_pool_new(int threads, th_error *e)
    void th_pool_free(th_pool *pool)

cdef extern from "common/vector.h" nogil:
    enum:
        TH_VEC_NEXT_STEP
        TH_VEC_SAME_STEP
        TH_VEC_DISABLED
    ctypedef struct th_vec:
        const th_game *game
        const void *like
        int64_t num_envs
        int learner
        int autoreset
        int penalize
        float penalty
        uint8_t policies[TH_MAX_PLAYERS]
        uint64_t seed
        unsigned char *states
        size_t stride
        uint64_t *episode
        uint32_t *moves
        float *obs
        float *final_obs
        uint8_t *obs_u8
        uint8_t *final_obs_u8
        uint8_t *mask
        float *rewards
        uint8_t *terminated
        uint8_t *truncated
        uint8_t *ended
        int32_t *current_player
    uint64_t th_vec_episode_seed(uint64_t seed, int64_t env, uint64_t episode)
    size_t th_vec_stride(const th_game *g, const void *like)
    int th_vec_check(const th_vec *v, th_error *e)
    int th_vec_reset(const th_vec *v, const uint8_t *reset, th_pool *pool, th_error *e)
    int th_vec_step(const th_vec *v, const int32_t *actions, th_pool *pool, int64_t *bad, int64_t bad_cap,
                    int64_t *num_bad, th_error *e)

cdef enum:
    _BAD_LISTED = 64

NEXT_STEP = TH_VEC_NEXT_STEP
SAME_STEP = TH_VEC_SAME_STEP
DISABLED = TH_VEC_DISABLED
#: Illegal envs an IllegalActionError lists at most.
BAD_LISTED = _BAD_LISTED


def episode_seed(uint64_t seed, int64_t env, uint64_t episode):
    """The deal seed of episode `episode` (0, 1, ...) of env `env`: the
    engine's Game.new_initial_state(episode_seed(...)) is that episode's deal."""
    return th_vec_episode_seed(seed, env, episode)


cdef inline void *data(cnp.ndarray a):
    return cnp.PyArray_DATA(a)


cdef class VecCore:
    """num_envs games of one game in C: the buffers (NumPy arrays, written in
    place by every reset and step) and the C calls. threes.vector.VectorEnv is
    the API; this class only converts."""

    cdef th_vec v
    cdef th_pool *pool
    cdef bytes _like
    cdef readonly cnp.ndarray states, episode, moves, obs, final_obs, mask, rewards, terminated, truncated, ended
    cdef readonly cnp.ndarray current_player
    cdef cnp.ndarray _actions, _bad
    cdef readonly int threads, obs_size, num_actions, num_players, observation_high, learner
    cdef readonly str game_name

    def __cinit__(self, tuple handle, int64_t num_envs, int learner, int autoreset, bint penalize, float penalty,
                  policies, uint64_t seed, int threads, bint uint8_obs):
        cdef th_error e
        cdef const th_game *g
        cdef int q
        self.pool = NULL
        capsule, like = handle
        if not PyCapsule_IsValid(capsule, b"threes.th_game"):
            raise TypeError("handle: a State's _vec_handle() (a th_game capsule and the state's bytes)")
        g = <const th_game *>PyCapsule_GetPointer(capsule, b"threes.th_game")
        if type(like) is not bytes or len(like) != g.state_size:
            raise TypeError(f"handle: the bytes of a {g.name.decode()} state ({g.state_size} of them)")
        self._like = like
        memset(&self.v, 0, sizeof(self.v))
        self.v.game = g
        self.v.like = <const char *>self._like
        if g.check(self.v.like, &e) != TH_OK:
            raise_error(&e)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game_name = g.name.decode()
        self.num_players = g.num_players(self.v.like)
        self.obs_size = g.observation_size(self.v.like)
        self.num_actions = g.num_actions(self.v.like)
        self.observation_high = g.observation_high(self.v.like)
        self.learner = learner
        self.v.num_envs = num_envs
        self.v.learner = learner
        self.v.autoreset = autoreset
        self.v.penalize = penalize
        self.v.penalty = penalty
        policies = tuple(policies)
        if len(policies) != self.num_players:
            raise ValueError(f"one policy per seat ({self.num_players}), not {len(policies)}")
        for q in range(self.num_players):
            self.v.policies[q] = <uint8_t>policies[q]
        self.v.seed = seed
        cdef object n = num_envs
        # the states lie as close as their bytes in use allow (th_game.state_bytes, aligned)
        cdef size_t stride = th_vec_stride(g, self.v.like)
        self.v.stride = stride
        self.states = np.zeros((n, stride), np.uint8)
        self.episode = np.zeros(n, np.uint64)
        self.moves = np.zeros(n, np.uint32)
        dtype = np.uint8 if uint8_obs else np.float32
        self.obs = np.zeros((n, self.obs_size), dtype)
        self.final_obs = np.zeros((n, self.obs_size), dtype)
        self.mask = np.zeros((n, self.num_actions), np.bool_)
        self.rewards = np.zeros((n,) if learner >= 0 else (n, self.num_players), np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.ended = np.zeros(n, np.bool_)
        self.current_player = np.full(n, -1, np.int32)
        self._actions = np.zeros(n, np.int32)
        self._bad = np.zeros(BAD_LISTED, np.int64)
        self.v.states = <unsigned char *>data(self.states)
        self.v.episode = <uint64_t *>data(self.episode)
        self.v.moves = <uint32_t *>data(self.moves)
        if uint8_obs:
            self.v.obs_u8 = <uint8_t *>data(self.obs)
            self.v.final_obs_u8 = <uint8_t *>data(self.final_obs)
        else:
            self.v.obs = <float *>data(self.obs)
            self.v.final_obs = <float *>data(self.final_obs)
        self.v.mask = <uint8_t *>data(self.mask)
        self.v.rewards = <float *>data(self.rewards)
        self.v.terminated = <uint8_t *>data(self.terminated)
        self.v.truncated = <uint8_t *>data(self.truncated)
        self.v.ended = <uint8_t *>data(self.ended)
        self.v.current_player = <int32_t *>data(self.current_player)
        if th_vec_check(&self.v, &e) != TH_OK:
            raise_error(&e)
        self.pool = th_pool_new(threads, &e)
        if self.pool == NULL:
            raise_error(&e)
        self.threads = threads

    def __dealloc__(self):
        th_pool_free(self.pool)
        self.pool = NULL

    @property
    def seed(self):
        return self.v.seed

    def reseed(self, uint64_t seed):
        """A new seed: every env's next episode is episode 0 of it (call reset)."""
        self.v.seed = seed
        self.episode[:] = 0

    def reset(self, reset_mask=None):
        """Deals the next episode of every env, or of those where reset_mask
        (a bool array of num_envs) is True."""
        cdef th_error e
        cdef int rc
        cdef const uint8_t *which = NULL
        cdef cnp.ndarray m
        if reset_mask is not None:
            m = np.ascontiguousarray(reset_mask)
            if m.dtype != np.bool_:
                raise TypeError(f"reset_mask must be a bool array, not of dtype {m.dtype}")
            if m.ndim != 1 or m.shape[0] != self.v.num_envs:
                raise ValueError(f"reset_mask must have shape ({self.v.num_envs},), not {(<object>m).shape}")
            which = <const uint8_t *>data(m)
        with nogil:
            rc = th_vec_reset(&self.v, which, self.pool, &e)
        if rc != TH_OK:
            raise_error(&e)

    cdef const int32_t *_action_buffer(self, actions) except NULL:
        """The actions as int32 ids, each out of 0..num_actions-1 as -1 (still
        illegal: no value wraps around into a legal id)."""
        cdef cnp.ndarray a = np.asarray(actions)
        cdef int64_t n = self.v.num_envs, i, x, hi = self.num_actions
        cdef int32_t *out = <int32_t *>data(self._actions)
        cdef const int64_t[::1] a64
        cdef const int32_t[::1] a32
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integer ids, not an array of dtype {a.dtype}")
        if a.ndim != 1 or a.shape[0] != n:
            raise ValueError(f"actions must have shape ({n},), one per env, not {(<object>a).shape}")
        if a.dtype == np.int32 and a.flags.c_contiguous:
            a32 = a
            for i in range(n):
                out[i] = a32[i] if 0 <= a32[i] < hi else -1
        elif a.dtype == np.int64 and a.flags.c_contiguous:
            a64 = a
            for i in range(n):
                x = a64[i]
                out[i] = <int32_t>x if 0 <= x < hi else -1
        else:
            np.copyto(self._actions, np.where((a >= 0) & (a < hi), a, -1), casting="unsafe")
        return out

    def step(self, actions):
        """One step of every env (threes.vector.VectorEnv.step)."""
        cdef th_error e
        cdef int rc
        cdef int64_t nbad = 0, k
        cdef const int32_t *acts = self._action_buffer(actions)
        cdef int64_t *bad = <int64_t *>data(self._bad)
        with nogil:
            rc = th_vec_step(&self.v, acts, self.pool, bad, _BAD_LISTED, &nbad, &e)
        if rc == TH_ERR_ILLEGAL:
            envs = tuple(int(x) for x in self._bad[:min(nbad, BAD_LISTED)])
            msg = e.msg.decode("utf-8", "replace")
            over = [i for i in envs if self.ended[i]]
            if over:  # DISABLED: stepping an ended env is a misuse, whatever else is wrong
                raise RuntimeError(f"the episodes of env(s) {over} are over and autoreset is disabled: reset them "
                                   "first (reset(options={'reset_mask': mask})); no env was stepped")
            more = f" (the first {BAD_LISTED} listed)" if nbad > BAD_LISTED else ""
            err = IllegalActionError(f"illegal actions in {nbad} env(s) {list(envs)}{more}: {msg}; no env was "
                                     "stepped (pick actions where the mask is True)")
            err.envs = envs
            raise err
        if rc != TH_OK:
            raise_error(&e)

    @property
    def nbytes_per_env(self):
        """Bytes of buffers each env holds (state, observations, mask, outputs)."""
        n = self.v.num_envs
        arrays = (self.states, self.episode, self.moves, self.obs, self.final_obs, self.mask, self.rewards,
                  self.terminated, self.truncated, self.ended, self.current_player, self._actions)
        return sum(a.nbytes for a in arrays) // n
