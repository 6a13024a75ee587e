/* toy_tricks.c - Toy Tricks: the rules and the game's th_game; see toy_tricks.h. */
#include "toy_tricks.h"

#include <stdio.h>
#include <string.h>

#include "common/returns.h"

_Static_assert(_Alignof(tk_state) <= TH_STATE_ALIGN, "tk_state must not need more than TH_STATE_ALIGN");
_Static_assert(sizeof(tk_state) <= TH_MAX_STATE_BYTES, "tk_state must fit TH_MAX_STATE_BYTES");
_Static_assert(TK_MAX_PLAYERS <= TH_MAX_PLAYERS, "the seats must fit TH_MAX_PLAYERS");

static const char RANKS[] = "23456789TJQKA";
static const char SUITS[] = "cdhs";

static int rank_of(int card) { return card % 13; }

/* Whether card a, played after b, beats b. */
static int beats(const tk_state *s, int a, int b) {
  return s->low_wins ? rank_of(a) < rank_of(b) : rank_of(a) > rank_of(b);
}

/* The trick position (0..trick_len-1) of the card winning the current trick so far. */
static int trick_best(const tk_state *s) {
  int best = 0;
  for (int i = 1; i < s->trick_len; i++)
    if (beats(s, s->trick[i], s->trick[best])) best = i;
  return best;
}

int tk_hand_size(const tk_state *s, int seat) {
  int n = 0;
  for (int c = 0; c < TK_NUM_CARDS; c++) n += s->owner[c] == seat;
  return n;
}

static void deal(tk_state *s, th_rng *rng) {
  uint8_t deck[TK_NUM_CARDS];
  for (int c = 0; c < TK_NUM_CARDS; c++) deck[c] = (uint8_t)c;
  th_shuffle_bytes(deck, TK_NUM_CARDS, rng);
  memset(s->owner, TK_UNDEALT, sizeof s->owner);
  for (int q = 0; q < s->num_players; q++)
    for (int i = 0; i < s->hand_size; i++) s->owner[deck[q * s->hand_size + i]] = (uint8_t)q;
}

int tk_longest(int num_players, int hand_size, int target) {
  /* after d deals the seats have won d * hand_size tricks, so one of them at least d * hand_size / players */
  int deals = (target * num_players + hand_size - 1) / hand_size;
  return deals * num_players * hand_size;
}

int tk_new_game(tk_state *s, int num_players, int hand_size, int low_wins, int target, int max_moves,
                uint64_t seed, th_error *e) {
  if (num_players < TK_MIN_PLAYERS || num_players > TK_MAX_PLAYERS) {
    th_set_error(e, TH_ERR_PLAYERS, "Toy Tricks is for %d to %d players, not %d", TK_MIN_PLAYERS, TK_MAX_PLAYERS,
                 num_players);
    return TH_ERR_PLAYERS;
  }
  if (hand_size < 1 || hand_size > TK_MAX_HAND || (low_wins != 0 && low_wins != 1) || target < 1 ||
      target > TK_MAX_TARGET || max_moves < 0 || max_moves > 0xFFFF) {
    th_set_error(e, TH_ERR_ARG, "hand_size must be in 1..%d, low_wins 0 or 1, target in 1..%d and max_moves in 0..65535",
                 TK_MAX_HAND, TK_MAX_TARGET);
    return TH_ERR_ARG;
  }
  memset(s, 0, sizeof *s);
  s->num_players = (uint8_t)num_players;
  s->hand_size = (uint8_t)hand_size;
  s->low_wins = (uint8_t)low_wins;
  s->target = (uint8_t)target;
  s->max_moves = (uint16_t)(max_moves ? max_moves : tk_longest(num_players, hand_size, target));
  th_rng_seed(&s->rng, seed);
  deal(s, &s->rng);
  return TH_OK;
}

int tk_check(const tk_state *s, th_error *e) {
  int n = s->num_players, done = 0, in_trick = 0, held[TK_MAX_PLAYERS] = {0}, played[TK_MAX_PLAYERS] = {0};
  if (n < TK_MIN_PLAYERS || n > TK_MAX_PLAYERS || s->hand_size < 1 || s->hand_size > TK_MAX_HAND ||
      s->low_wins > 1 || s->over > 1 || s->truncated > 1 || s->max_moves < 1 || s->target < 1 ||
      s->target > TK_MAX_TARGET) {
    th_set_error(e, TH_ERR_SETUP, "the players, hand size, flags, target or move cap are out of range");
    return TH_ERR_SETUP;
  }
  if (s->leader >= n || s->trick_len >= n || (!s->over && s->current != (s->leader + s->trick_len) % n) ||
      (s->truncated && !s->over)) {
    th_set_error(e, TH_ERR_SETUP, "the leader, the trick or the seat to move do not agree");
    return TH_ERR_SETUP;
  }
  for (int c = 0; c < TK_NUM_CARDS; c++) {
    int o = s->owner[c];
    if (o < n)
      held[o]++;
    else if (o == TK_IN_TRICK)
      in_trick++;
    else if (o >= TK_PLAYED_BY && o < TK_PLAYED_BY + n)
      played[o - TK_PLAYED_BY]++;
    else if (o != TK_UNDEALT) {
      th_set_error(e, TH_ERR_SETUP, "card %d has no owner", c);
      return TH_ERR_SETUP;
    }
  }
  int before = 0, deal_moves = n * s->hand_size; /* the most tricks in all of a seat before this deal */
  for (int q = 0; q < n; q++) {
    done += s->tricks[q];
    if (s->total[q] < s->tricks[q]) {
      th_set_error(e, TH_ERR_SETUP, "seat %d won more tricks in this deal than in all", q);
      return TH_ERR_SETUP;
    }
    if (s->total[q] - s->tricks[q] > before) before = s->total[q] - s->tricks[q];
  }
  int all = 0;
  for (int q = 0; q < n; q++) all += s->total[q];
  if (all != s->deal * s->hand_size + done || before >= s->target ||
      (done == 0 && s->trick_len == 0 && !s->over && s->leader != s->deal % n)) {
    th_set_error(e, TH_ERR_SETUP, "the tricks in all, the deals and the leader do not agree");
    return TH_ERR_SETUP;
  }
  for (int q = 0; q < n; q++) {
    int in = ((q - s->leader + n) % n) < s->trick_len; /* q played a card into the current trick */
    if (played[q] != done || held[q] + played[q] + in != s->hand_size) {
      th_set_error(e, TH_ERR_SETUP, "seat %d's cards do not add up to its hand", q);
      return TH_ERR_SETUP;
    }
  }
  if (in_trick != s->trick_len) {
    th_set_error(e, TH_ERR_SETUP, "the trick's cards are not the cards in the trick");
    return TH_ERR_SETUP;
  }
  for (int i = 0; i < s->trick_len; i++) {
    if (s->trick[i] >= TK_NUM_CARDS || s->owner[s->trick[i]] != TK_IN_TRICK) {
      th_set_error(e, TH_ERR_SETUP, "the trick's cards are not the cards in the trick");
      return TH_ERR_SETUP;
    }
    for (int j = 0; j < i; j++)
      if (s->trick[j] == s->trick[i]) {
        th_set_error(e, TH_ERR_SETUP, "a card is twice in the trick");
        return TH_ERR_SETUP;
      }
  }
  int most = 0;
  for (int q = 0; q < n; q++)
    if (s->total[q] > most) most = s->total[q];
  int ended = done == s->hand_size && most >= s->target;
  if (s->move_count != s->deal * deal_moves + done * n + s->trick_len || s->move_count > s->max_moves ||
      (!s->over && done == s->hand_size) || (!s->truncated && s->over != ended) ||
      (s->truncated && (s->move_count != s->max_moves || done == s->hand_size)) ||
      (!s->over && s->move_count >= s->max_moves)) {
    th_set_error(e, TH_ERR_SETUP, "the move count, the cap and the end of the game do not agree");
    return TH_ERR_SETUP;
  }
  return TH_OK;
}

static int is_legal(const tk_state *s, int a) {
  return !s->over && a >= 0 && a < TK_NUM_CARDS && s->owner[a] == s->current;
}

static int legal_actions(const tk_state *s, uint16_t *out) {
  int k = 0;
  if (s->over) return 0;
  for (int c = 0; c < TK_NUM_CARDS; c++)
    if (s->owner[c] == s->current) out[k++] = (uint16_t)c;
  return k;
}

static void apply_legal(tk_state *s, int a) {
  int n = s->num_players;
  s->owner[a] = TK_IN_TRICK;
  s->trick[s->trick_len++] = (uint8_t)a;
  s->move_count++;
  if (s->trick_len == n) {
    int best = trick_best(s), winner = (s->leader + best) % n;
    for (int i = 0; i < n; i++) s->owner[s->trick[i]] = (uint8_t)(TK_PLAYED_BY + (s->leader + i) % n);
    s->tricks[winner]++;
    s->total[winner]++;
    s->trick_len = 0;
    s->leader = s->current = (uint8_t)winner;
    int done = 0, most = 0;
    for (int q = 0; q < n; q++) {
      done += s->tricks[q];
      if (s->total[q] > most) most = s->total[q];
    }
    if (done == s->hand_size) {
      if (most >= s->target) {
        s->over = 1;
        return;
      }
      s->deal++; /* the next deal */
      memset(s->tricks, 0, sizeof s->tricks);
      s->leader = s->current = (uint8_t)(s->deal % n);
      deal(s, &s->rng);
    }
  } else {
    s->current = (uint8_t)((s->current + 1) % n);
  }
  if (s->move_count >= s->max_moves) {
    s->over = 1;
    s->truncated = 1;
  }
}

int tk_apply_action(tk_state *s, int action, th_error *e) {
  if (action < 0 || action >= TK_NUM_CARDS) {
    th_set_error(e, TH_ERR_ACTION, "action %d is not a card id (0..%d)", action, TK_NUM_CARDS - 1);
    return TH_ERR_ACTION;
  }
  if (!is_legal(s, action)) {
    th_set_error(e, TH_ERR_ILLEGAL, s->over ? "the game is over" : "card %d is not in the hand of seat %d",
                 action, s->current);
    return TH_ERR_ILLEGAL;
  }
  apply_legal(s, action);
  return TH_OK;
}

static void returns(const tk_state *s, double *out) {
  int32_t key[TK_MAX_PLAYERS];
  for (int q = 0; q < s->num_players; q++) key[q] = -(int32_t)s->total[q];
  th_returns_from_keys(key, s->num_players, out);
}

/* greedy: win the trick as cheaply as possible, else throw the weakest card (leading: the strongest). */
static int policy_action(const tk_state *s, int policy, th_rng *rng) {
  uint16_t a[TK_MAX_HAND];
  int k = legal_actions(s, a), pick = 0;
  if (policy == 0) return a[th_rng_below(rng, (uint32_t)k)];
  if (s->trick_len == 0) {
    for (int i = 1; i < k; i++)
      if (beats(s, a[i], a[pick])) pick = i;
    return a[pick];
  }
  int top = s->trick[trick_best(s)], win = -1, weak = 0;
  for (int i = 0; i < k; i++) {
    if (beats(s, a[i], top) && (win < 0 || beats(s, a[win], a[i]))) win = i;
    if (beats(s, a[weak], a[i])) weak = i;
  }
  return a[win >= 0 ? win : weak];
}

static int resample(tk_state *s, int observer, th_rng *rng, th_error *e) {
  uint8_t pool[TK_NUM_CARDS];
  int k = 0, count[TK_MAX_PLAYERS] = {0};
  if (observer < 0 || observer >= s->num_players) {
    th_set_error(e, TH_ERR_ARG, "seat %d is not a seat of this game", observer);
    return TH_ERR_ARG;
  }
  for (int c = 0; c < TK_NUM_CARDS; c++) {
    int o = s->owner[c];
    if (o == TK_UNDEALT || (o < s->num_players && o != observer)) {
      pool[k++] = (uint8_t)c;
      if (o != TK_UNDEALT) count[o]++;
    }
  }
  th_shuffle_bytes(pool, k, rng);
  int i = 0;
  for (int q = 0; q < s->num_players; q++)
    for (int j = 0; j < (q == observer ? 0 : count[q]); j++) s->owner[pool[i++]] = (uint8_t)q;
  for (; i < k; i++) s->owner[pool[i]] = TK_UNDEALT;
  th_rng_seed(&s->rng, th_rng_next(rng)); /* the next deals are unknown too */
  return TH_OK;
}

/* ------------------------------------------------------------ th_game -- */
static int g_check(const void *s, th_error *e) { return tk_check((const tk_state *)s, e); }
static int g_current_player(const void *s) {
  const tk_state *t = (const tk_state *)s;
  return t->over ? TH_TERMINAL_PLAYER : t->current;
}
static int g_is_over(const void *s) { return ((const tk_state *)s)->over; }
static int g_legal_actions(const void *s, uint16_t *out) { return legal_actions((const tk_state *)s, out); }
static void g_apply_legal(void *s, int a) { apply_legal((tk_state *)s, a); }
static int g_resample(void *s, int observer, th_rng *rng, th_error *e) {
  return resample((tk_state *)s, observer, rng, e);
}
static int g_policy_action(const void *s, int policy, th_rng *rng) {
  return policy_action((const tk_state *)s, policy, rng);
}
static void g_rollout(void *s_, int policy, th_rng *rng) {
  tk_state *s = (tk_state *)s_;
  for (int m = 0; m < s->max_moves && !s->over; m++) apply_legal(s, policy_action(s, policy, rng));
}
static void g_returns(const void *s, double *out) { returns((const tk_state *)s, out); }
static int g_search_value(const void *root, void *d, int policy, th_rng *rng, const th_stop *stop, double *out) {
  tk_state *s = (tk_state *)d;
  (void)root;
  for (int m = 1; m <= s->max_moves && !s->over; m++) {
    if (m % TH_STOP_MOVES == 0 && th_stop_now(stop)) return 1;
    apply_legal(s, policy_action(s, policy, rng));
  }
  returns(s, out);
  return 0;
}
static void g_new_game(void *s, const void *like, uint64_t seed) {
  const tk_state *l = (const tk_state *)like;
  tk_new_game((tk_state *)s, l->num_players, l->hand_size, l->low_wins, l->target, l->max_moves, seed, NULL);
}

/* The observation tensor of seat p: own hand (52), the current trick (52), the cards played in the deal's
 * earlier tricks (52), then per seat: tricks won in the deal, hand size, to move (0/1), leader (0/1),
 * tricks won in all. */
static int g_observation_size(const void *s) { return 3 * TK_NUM_CARDS + 5 * ((const tk_state *)s)->num_players; }
static void g_observe(const void *s_, int p, float *out) {
  const tk_state *s = (const tk_state *)s_;
  int n = s->num_players;
  memset(out, 0, sizeof(float) * (size_t)g_observation_size(s));
  for (int c = 0; c < TK_NUM_CARDS; c++) {
    int o = s->owner[c];
    if (o == p) out[c] = 1.0f;
    if (o == TK_IN_TRICK) out[TK_NUM_CARDS + c] = 1.0f;
    if (o >= TK_PLAYED_BY && o < TK_PLAYED_BY + n) out[2 * TK_NUM_CARDS + c] = 1.0f;
  }
  float *seat = out + 3 * TK_NUM_CARDS;
  for (int q = 0; q < n; q++) {
    seat[q] = s->tricks[q];
    seat[n + q] = (float)tk_hand_size(s, q);
    seat[2 * n + q] = !s->over && s->current == q;
    seat[3 * n + q] = s->leader == q;
    seat[4 * n + q] = s->total[q];
  }
}
static int g_is_legal(const void *s, int a) { return is_legal((const tk_state *)s, a); }
static int g_num_players(const void *s) { return ((const tk_state *)s)->num_players; }
static int g_is_truncated(const void *s) { return ((const tk_state *)s)->truncated; }
static int g_num_actions(const void *s) {
  (void)s;
  return TK_NUM_CARDS;
}
static int g_observation_high(const void *s) {
  const tk_state *t = (const tk_state *)s;
  return t->target + t->hand_size - 1; /* the most tricks in all a seat can have */
}

/* events: 0 play (seat, its card), 1 trick (the winner, the trick's cards, value: tricks won in the deal),
 * 2 over, 3 truncated, 4 deal (a new deal; value: its number from 1) */
static void g_events(const void *before_, const void *after_, int action, th_events *out) {
  const tk_state *b = (const tk_state *)before_, *a = (const tk_state *)after_;
  th_events_clear(out);
  th_event *e = th_event_add(out, 0, b->current);
  th_event_card(e, action);
  if (b->trick_len + 1 == b->num_players) {
    int winner = 0;
    for (int q = 0; q < b->num_players; q++)
      if (a->total[q] != b->total[q]) winner = q;
    e = th_event_add(out, 1, winner);
    e->value = b->tricks[winner] + 1;
    for (int i = 0; i < b->trick_len; i++) th_event_card(e, b->trick[i]);
    th_event_card(e, action);
  }
  if (a->deal != b->deal) th_event_add(out, 4, a->leader)->value = a->deal + 1;
  if (a->over) th_event_add(out, a->truncated ? 3 : 2, TH_EVENT_NO_SEAT);
}

static size_t put(char *out, size_t cap, size_t at, const char *text) {
  size_t k = strlen(text);
  if (at < cap) memcpy(out + at, text, at + k < cap ? k : cap - at - 1);
  return at + k;
}

static size_t put_card(char *out, size_t cap, size_t at, int card, int lead) {
  char t[4] = {' ', RANKS[card % 13], SUITS[card / 13], 0};
  return put(out, cap, at, lead ? t : t + 1);
}

/* "seat 1 | hand 2c 7d Ah | trick (seat 0 led) Kc | played 0:3c 1:Qd | tricks 1 0 | hands 3 3 | to move 1" */
static size_t g_observation_text(const void *s_, int p, char *out, size_t cap) {
  const tk_state *s = (const tk_state *)s_;
  char num[48];
  size_t at = 0;
  int n = s->num_players;
  snprintf(num, sizeof num, "seat %d | hand", p);
  at = put(out, cap, at, num);
  for (int c = 0; c < TK_NUM_CARDS; c++)
    if (s->owner[c] == p) at = put_card(out, cap, at, c, 1);
  snprintf(num, sizeof num, " | trick (seat %d led)", s->leader);
  at = put(out, cap, at, num);
  for (int i = 0; i < s->trick_len; i++) at = put_card(out, cap, at, s->trick[i], 1);
  at = put(out, cap, at, " | played");
  for (int q = 0; q < n; q++) {
    snprintf(num, sizeof num, " %d:", q);
    at = put(out, cap, at, num);
    int first = 1;
    for (int c = 0; c < TK_NUM_CARDS; c++)
      if (s->owner[c] == TK_PLAYED_BY + q) {
        at = put_card(out, cap, at, c, !first);
        first = 0;
      }
  }
  at = put(out, cap, at, " | tricks");
  for (int q = 0; q < n; q++) {
    snprintf(num, sizeof num, " %d", s->tricks[q]);
    at = put(out, cap, at, num);
  }
  at = put(out, cap, at, " | in all");
  for (int q = 0; q < n; q++) {
    snprintf(num, sizeof num, " %d", s->total[q]);
    at = put(out, cap, at, num);
  }
  snprintf(num, sizeof num, " | deal %d", s->deal + 1);
  at = put(out, cap, at, num);
  at = put(out, cap, at, " | hands");
  for (int q = 0; q < n; q++) {
    snprintf(num, sizeof num, " %d", tk_hand_size(s, q));
    at = put(out, cap, at, num);
  }
  if (s->over)
    at = put(out, cap, at, s->truncated ? " | over (move cap)" : " | over");
  else {
    snprintf(num, sizeof num, " | to move %d", s->current);
    at = put(out, cap, at, num);
  }
  if (cap > 0) out[at < cap ? at : cap - 1] = 0;
  return at;
}

static size_t g_state_bytes(const void *s) {
  (void)s;
  return sizeof(tk_state);
}

const th_game tk_game = {
    .name = "toy_tricks",
    .state_size = sizeof(tk_state),
    .state_bytes = g_state_bytes,
    .max_players = TK_MAX_PLAYERS,
    .max_actions = TK_NUM_CARDS,
    .num_policies = TK_NUM_POLICIES,
    .check = g_check,
    .current_player = g_current_player,
    .is_over = g_is_over,
    .legal_actions = g_legal_actions,
    .apply_legal = g_apply_legal,
    .resample = g_resample,
    .policy_action = g_policy_action,
    .rollout = g_rollout,
    .returns = g_returns,
    .search_value = g_search_value,
    .new_game = g_new_game,
    .observation_size = g_observation_size,
    .observe = g_observe,
    .is_legal = g_is_legal,
    .num_players = g_num_players,
    .is_truncated = g_is_truncated,
    .num_actions = g_num_actions,
    .observation_high = g_observation_high,
    .vec_unsupported = NULL,
    .events = g_events,
    .observation_text = g_observation_text,
};
