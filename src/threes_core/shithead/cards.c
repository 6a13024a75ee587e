/* cards.c - card text; see cards.h. */
#include "shithead/cards.h"

void sh_kind_text(int kind, char buf[3]) {
  static const char ranks[] = "23456789TJQKA";
  static const char suits[] = "cdhs";
  if (kind == SH_KIND_RED_JOKER || kind == SH_KIND_BLACK_JOKER) {
    buf[0] = 'X';
    buf[1] = kind == SH_KIND_RED_JOKER ? 'r' : 'b';
  } else if (kind >= 0 && kind < SH_KIND_RED_JOKER) {
    buf[0] = ranks[sh_kind_rank(kind)];
    buf[1] = suits[sh_kind_suit(kind)];
  } else {
    buf[0] = '?';
    buf[1] = '?';
  }
  buf[2] = '\0';
}
