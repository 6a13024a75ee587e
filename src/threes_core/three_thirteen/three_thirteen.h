/* three_thirteen.h - Three Thirteen, the rummy game: one header for its C API.
 *
 * THE RULES IN SHORT (the specification is docs/three_thirteen/RULES.md). 2..8 players,
 * ceil(players / 2) 52-card decks, optional jokers. 11 rounds; in round k
 * every player is dealt k + 2 cards and the rank equal to that number is
 * wild (3s in round 1 ... Kings in round 11; jokers are always wild). The
 * rest is the stock; its top card starts the discard pile. A turn: draw the
 * top card of the stock or of the discard pile, then discard one card or go
 * out (the hand less the discard arranges entirely into sets and runs,
 * meld.h). After a player goes out every other player has one more turn;
 * then each player scores the minimum deadwood of their hand (0 for those
 * out) and the deal passes left. The lowest total after 11 rounds wins; equal
 * totals share the place. Everyone sees the discard pile, who takes which
 * discard and, after a reshuffle, which cards make the new stock (T-9).
 *
 * Cards are kinds (rules.h): kind = 4 * (rank - 1) + suit for rank 1..13
 * (A..K) and suit 0..3 (c d h s); 52 and 53 are the red and black jokers.
 *
 * ACTION MAP (the same in every state of every game):
 *   0              draw the top card of the stock          TT_ACTION_STOCK
 *   1              take the top card of the discard pile   TT_ACTION_TAKE_DISCARD
 *   2 + k          discard one card of kind k              TT_FIRST_DISCARD + k
 *   2 + 54 + k     go out, discarding one card of kind k   TT_FIRST_GO_OUT + k
 *
 * FILES: rules.h (cards, options), meld.h (the minimum-deadwood solver;
 * its search, meld_search.inc, is compiled twice by meld.c: plain and
 * drop-one), state.h (the position, its rules of play, the knowledge record, the
 * invariant check, the setup API of setup.c), determinize.h (resampling),
 * observation.h (the observation tensor), rollout.h (policies, rollouts,
 * threaded batches), events.h (what a move did, from the states before and
 * after it).
 *
 * INDEX: spec section or decision -> C function -> tests (Python tests in
 * tests/three_thirteen/test_three_thirteen.py, C units in tests/c/).
 *   Cards and players, T-1  tt_options_default, tt_options_validate
 *                           test_t1_default_decks; C "Three Thirteen games"
 *   Rounds                  tt_new_game, deal_round (state.c)
 *                           test_t1_rounds_deal_wild_rank_and_dealer, test_t1_first_dealer_from_seed
 *   A turn, T-2             tt_legal_actions, tt_is_legal, tt_may_discard, tt_apply_action
 *                           test_t2_taken_card_not_discarded_same_turn, test_legal_actions_sorted_and_consistent,
 *                           test_illegal_actions_raise_and_change_nothing,
 *                           test_go_out_actions_are_exactly_the_definition (test_three_thirteen_shortcuts.py)
 *   T-3 (reshuffle)         reshuffle (state.c), tt_apply_legal
 *                           test_t3_empty_stock_reshuffles_discard_pile, test_t3_no_card_left_ends_the_round
 *   Melds, T-4 .. T-6       tt_min_deadwood (meld.h)
 *                           test_t4_*, test_t5_*, test_t6_*, test_solver_*; tests/c/test_meld.c
 *   Going out and scoring,  tt_deadwood_without, end_turn/score_round (state.c), tt_card_value
 *   T-7, T-8                test_t7_round_score_is_minimum_deadwood, test_t8_wild_penalty,
 *                           test_final_turns_in_order_then_scoring
 *   End of game             tt_returns, tt_standings
 *                           test_game_end_and_returns_with_a_tie, test_returns_rank_by_total_with_shared_places
 *   What each player        known / pool_active / pool_hand (state.h), record_discard, show_hand (state.c),
 *   knows, T-9, T-10        tt_pool_count, tt_pool_held, tt_state_check
 *                           test_T9_taken_discard_stays_known, test_T9_reshuffled_stock_is_a_known_pool,
 *                           test_T9_shown_hand_of_a_player_out_is_known,
 *                           test_T9_another_copy_discarded_forgets_the_known_one,
 *                           test_T9_ambiguous_discard_dissolves_the_pool,
 *                           test_T10_a_discard_from_a_hand_of_pool_cards_keeps_the_pool,
 *                           test_T10_random_games_keep_the_pool_when_the_discarder_holds_only_pool_cards;
 *                           C "Three Thirteen knowledge"
 *     resampling            tt_resample (determinize.h)
 *                           test_T9_resample_keeps_known_cards_and_infostate, test_resample_from_infostate;
 *                           C "Three Thirteen games", "Three Thirteen knowledge"
 *     observation           tt_observation_tensor (observation.h)
 *                           test_T9_observation_tensor_hides_nothing_else; C "Three Thirteen knowledge"
 *   Positions (from_dict)   tt_setup_begin, tt_setup_add, tt_setup_finish (setup.c), tt_state_check
 *                           test_setup_round_trip_with_knowledge, test_setup_rejects_bad_fields,
 *                           test_setup_loads_a_dict_saved_before_the_T9_record, test_from_dict_rejects_malformed;
 *                           test_three_thirteen_strict.py (unreachable positions, exact types, history);
 *                           C "Three Thirteen setup"
 *   Rollouts                tt_policy_action, tt_rollout, tt_rollout_round, tt_rollouts (rollout.h)
 *                           test_rollouts_threads_give_the_same_games, test_rollouts_*,
 *                           test_greedy_batch_games_equal_memo_free_play (test_three_thirteen_shortcuts.py),
 *                           test_rollouts_copy_the_start_state_once (test_three_thirteen_strict.py);
 *                           C "Three Thirteen batches"
 */
#ifndef THREES_THREE_THIRTEEN_THREE_THIRTEEN_H
#define THREES_THREE_THIRTEEN_THREE_THIRTEEN_H

#include "three_thirteen/meld.h"
#include "three_thirteen/rules.h"
#include "three_thirteen/state.h"
#include "three_thirteen/game.h"
#include "common/ismcts.h"
#include "three_thirteen/determinize.h"
#include "three_thirteen/observation.h"
#include "three_thirteen/rollout.h"
#include "three_thirteen/events.h"

#endif
