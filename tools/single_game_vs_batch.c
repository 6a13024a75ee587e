/* One game played alone (sh_batch_play_game, as threes.rollout plays it)
 * against the per-game time of a batch from the same late position
 * (sh_rollouts on one thread, two games in flight), in ns per move: the C
 * part of threes.rollout()'s "overhead" in benchmarks/test_bench_boundary.py.
 * Build and run from the checkout (after building the C library with CMake):
 *   cmake -S . -B build/c -DCMAKE_BUILD_TYPE=Release && cmake --build build/c -j2 --target threes_core
 *   gcc -O2 -Isrc/threes_core tools/single_game_vs_batch.c build/c/libthrees_core.a -lpthread -lm -o build/svb
 *   build/svb */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "shithead/state.h"
#include "shithead/rollout.h"
#include "shithead/rules.h"
#include "common/batch.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(void){
  sh_rules r; sh_rules_preset(SH_PRESET_THREES,&r);
  sh_state s, t; th_rng rng;
  sh_state_deal(&s,&r,4,0,10000,12345,NULL);
  t=s; th_batch_rng(7,0,&rng); uint8_t pol[8]={0};
  uint32_t m=sh_rollout_full(&t,pol,&rng,0);
  printf("game moves %u\n",m);
  t=s; th_batch_rng(7,0,&rng);
  /* play to m-15 */
  sh_state st=s; th_batch_rng(7,0,&rng);
  for(uint32_t k=0;k+15<m;k++) sh_policy_step(&st,0,&rng);
  printf("start phase %d moves %u\n",st.phase,st.move_count);
  int K=30000;
  static int8_t places[30000*4]; static uint32_t moves[30000]; static uint8_t tr[30000];
  for(int rep=0;rep<4;rep++){
    sh_batch b; memset(&b,0,sizeof b); b.start=&st; b.start_valid=1; b.seed=rep; b.n=K;
    b.places=places;b.moves=moves;b.truncated=tr;
    double t0=now(); sh_rollouts(&b,1,NULL); double t1=now();
    long tot=0; for(int i=0;i<K;i++) tot+=moves[i];
    /* single */
    double t2=now(); long tot2=0;
    for(int i=0;i<K;i++){ sh_state e; uint32_t mv; sh_rep_log lg; memset(&lg,0,sizeof lg);
      b.n=1; sh_batch_play_game(&b,i,NULL,&e,&mv,&lg); tot2+=mv; if(lg.keys) sh_rep_log_free(&lg);}
    double t3=now();
    printf("batch %.0f ns/game (%.1f ns/move)  single %.0f ns/game (%.1f ns/move) moves %ld %ld\n",
      (t1-t0)/K*1e9,(t1-t0)/tot*1e9,(t3-t2)/K*1e9,(t3-t2)/tot2*1e9,tot,tot2);
  }
}
