/* shithead.h - the Shithead family (Threes, classic, dutch, house rules as
 * data): one header for this game's whole C API. The specification is
 * docs/shithead/RULES.md; section numbers and decisions D-n below are its.
 *
 * THE RULES IN SHORT. Every player has a hand, a face-up and a face-down zone
 * of cards_per_zone cards each. After a one-decision swap phase (4, D-1),
 * players in turn play one or more cards of one rank on the pile, first from
 * the hand (refilled from the draw pile), then from the face-up cards, then
 * blind from the face-down slots (6, 6.2). A card must be >= the pile's
 * effective top (looking past invisible cards), or <= after a "lower" card,
 * unless it is wild (6.1). Burn cards and runs of run_to_burn cards of one
 * rank burn the pile, and the burner plays again (6.3). Who cannot play
 * picks the pile up (D-3). The first out wins; the last player with cards is
 * the shithead; a game at the move cap ends truncated (7). Presets: threes
 * (default), classic, dutch (3).
 *
 * THE ACTION MAP (actions.h has the full table). With C = 4 * decks and
 * K = cards_per_zone: [0, 14C) PLAY(rank r, count c) = r*C + c-1;
 * [14C, 14C+K) BLIND(slot); 14C+K PICK_UP; then SWAP(choice), one id per
 * multiset of K ranks kept face up. threes: 676 ids; classic, dutch: 620.
 *
 * FILES (one concept per pair; prefix sh_, shared parts in common/ with th_):
 *   cards.h        ranks, suits, card kinds and physical card ids
 *   rules.h        the rule-set struct, presets, validation
 *   actions.h      the action map and the sh_move value
 *   state.h        the fixed-size state; deal, legal actions, apply, returns,
 *                  building a position (setup.c), the invariant check
 *   rep_log.h      a stretch's repetition keys beyond the state's ring (the
 *                  caller's memory, attached for a call: exact repetitions)
 *   rank_rows.h    internal: SWAR/SSE2 helpers on per-rank count rows
 *   rollout.h      policies (random, greedy, heuristic) and rollouts, batched
 *                  over native threads
 *   determinize.h  resampling the cards a seat cannot see
 *   observation.h  the observation tensor of one seat
 *   events.h       what a move did, from the states before and after it
 *   game.h         sh_game: Shithead behind the generic th_game interface
 *                  (common/game.h), for the one search common/ismcts.h
 *
 * RULE SECTION -> FUNCTION -> TEST (tests/shithead/test_scenarios.py unless
 * named otherwise; tests/c/test_engine.c runs the C units under sanitizers):
 *   1 cards, canonical order  sh_kind_text, cards.h     test_api.py (Card), test_engine.c
 *   2 public knowledge        sh_known_rank_counts      test_2_known_copies_leave_the_hand_first
 *   3 parameters, presets     sh_rules_preset, sh_rules_validate
 *                                                       test_api.py, test_bad_input.py
 *   4 deal, swap (D-1, D-15)  sh_state_deal, sh_legal_actions (swap ids), sh_do_swap
 *                                                       test_4_1_*, test_4_2_*
 *   5 who starts (D-2, D-12)  sh_find_starter           test_5_*, test_D12_*, test_D2_*
 *   6.1 playable ranks        sh_playable, sh_playable_mask, sh_playable_by_top
 *                                                       test_6_1_*, test_D4_*, test_D6_*, test_D9_*
 *   6.2 plays, blind, pick-up sh_legal_actions, sh_do_play, sh_do_blind, sh_do_pickup
 *                                                       test_6_2_*, test_D3_*, test_D7_*, test_D8_*
 *   6.3 burn, refill, out, next seat
 *                             sh_apply_legal (state.c), sh_state_init_seats
 *                                                       test_6_3_*, test_D5_*, test_D10_*
 *   7 end, returns, move cap  sh_returns, sh_state_check
 *                                                       test_7_*, test_random_sim.py
 *   7 stalemate by repetition sh_record_position, sh_repetition_key, rep_log.h
 *                                                       test_repetition_key.py, test_repetition_exact.py,
 *                                                       test_stalemate.py
 *   D-18 stalemate on the cap's last move
 *                             end_move (state.c)        test_stalemate.py (test_7_D18_*)
 *   D-16 table limits         SH_MAX_PLAYERS, sh_rules_validate
 *                                                       test_5_rank_suit_unlisted_suits_*, test_bounds.py
 *   all rules, every move     the reference model tests/reference/shithead_model.py
 *                                                       test_differential.py
 *
 * SAFETY. Every entry point that takes outside data (rules, player counts,
 * action ids, positions) checks it and reports through th_error
 * (common/error.h); sh_apply_legal and the sh_fast_* steps are for callers
 * that have already checked. Every loop is bounded by the fixed sizes or
 * the move cap. Only the log of rep_log.h allocates (and only once a stretch
 * outgrows the ring, with repetition_limit on); the batches own and free
 * theirs, and a failed allocation is reported, never ignored.
 */
#ifndef THREES_H
#define THREES_H

#include "shithead/actions.h"
#include "shithead/cards.h"
#include "common/rng.h"
#include "shithead/rules.h"
#include "shithead/state.h"
#include "shithead/rollout.h"
#include "shithead/determinize.h"
#include "shithead/observation.h"
#include "shithead/game.h"
#include "shithead/events.h"
#include "common/ismcts.h"

#endif
