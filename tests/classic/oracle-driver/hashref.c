/* hashref.c: scratch program (never part of gamesman-rs) linked with GamesmanClassic's own core/hash.o.
 * Prints, as TSV rows, generic_hash_init / generic_hash_max_pos / generic_hash_hash / unhash / turn
 * results for a few piece layouts, so the compatibility layer can be checked against Classic's numbering. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "gamesman.h"

static const char *cur_case = "";
static const char *cur_args = "";

static void row_max(void) {
	printf("%s\t%d\tmax_pos\t%s\t-\t-\t%llu\t-\t-\n", cur_case, generic_hash_cur_context(), cur_args,
	       (unsigned long long)generic_hash_max_pos());
}

/* hash a board for a turn, unhash the result, and print both */
static void row_hash(const char *board, int turn) {
	char b[64], back[64];
	int n = (int)strlen(board);
	memcpy(b, board, n + 1);
	POSITION h = generic_hash_hash(b, turn);
	memset(back, 0, sizeof back);
	generic_hash_unhash(h, back);
	back[n] = 0;
	printf("%s\t%d\thash\t%s\t%s\t%d\t%llu\t%s\t%d\n", cur_case, generic_hash_cur_context(), cur_args, board, turn,
	       (unsigned long long)h, back, generic_hash_turn(h));
}

/* unhash every position 0..max_pos-1 */
static void rows_all(int n) {
	POSITION m = generic_hash_max_pos(), p;
	char back[64];
	for (p = 0; p < m; p++) {
		memset(back, 0, sizeof back);
		generic_hash_unhash(p, back);
		back[n] = 0;
		printf("%s\t%d\tunhash\t%s\t-\t-\t%llu\t%s\t%d\n", cur_case, generic_hash_cur_context(), cur_args,
		       (unsigned long long)p, back, generic_hash_turn(p));
	}
}

static int vcfg_ttt(int *c) { return c[0] == c[1] || c[0] == c[1] + 1; } /* X count == O count or one more */
static int vcfg_c4(int *c) { return c[0] == c[1] || c[0] == c[1] + 1; }

int hashref_main(int argc, char *argv[]) {
	(void)argc; (void)argv;
	printf("case\tcontext\tkind\tinit_args\tboard_in\tturn_in\tvalue\tboard_out\tturn_out\n");

	/* A: tic-tac-toe, no vcfg, both turns */
	int ttt[] = {'X', 0, 5, 'O', 0, 4, '-', 0, 9, -1};
	cur_case = "ttt_both"; cur_args = "boardsize=9 pieces={'X',0,5,'O',0,4,'-',0,9,-1} vcfg=NULL player=0";
	generic_hash_init(9, ttt, NULL, 0);
	int cA = generic_hash_cur_context();
	row_max();
	const char *tb[] = {"---------", "X--------", "-X-------", "--------X", "O--------", "XO-------", "OX-------",
	                    "XXXXXOOOO", "OOOOXXXXX", "XOXOXOXOX", "X-O-X-O-X", "XX-OO----", "--------O", "XXXXX----"};
	for (unsigned i = 0; i < sizeof tb / sizeof *tb; i++) { row_hash(tb[i], 1); row_hash(tb[i], 2); }

	/* B: tic-tac-toe with vcfg, player 1 only (mtttier's global hash shape) */
	cur_case = "ttt_vcfg_p1"; cur_args = "boardsize=9 pieces={'X',0,5,'O',0,4,'-',0,9,-1} vcfg=(X==O||X==O+1) player=1";
	generic_hash_init(9, ttt, vcfg_ttt, 1);
	int cB = generic_hash_cur_context();
	row_max();
	const char *tbv[] = {"---------", "X--------", "-X-------", "--------X", "XO-------", "OX-------", "XXXXXOOOO",
	                     "XOXOXOXOX", "X-O-X-O-X", "XX-OO----"};
	for (unsigned i = 0; i < sizeof tbv / sizeof *tbv; i++) { row_hash(tbv[i], 1); row_hash(tbv[i], 2); }

	/* C: same pieces, player 2 only */
	cur_case = "ttt_p2"; cur_args = "boardsize=9 pieces={'X',0,5,'O',0,4,'-',0,9,-1} vcfg=NULL player=2";
	generic_hash_init(9, ttt, NULL, 2);
	int cC = generic_hash_cur_context();
	row_max();
	for (unsigned i = 0; i < 8; i++) { row_hash(tb[i], 1); row_hash(tb[i], 2); }

	/* D: connect-4-like 4 rows x 5 cols, both turns, vcfg */
	int c4[] = {'X', 0, 10, 'O', 0, 10, '-', 0, 20, -1};
	cur_case = "c4_4x5_both"; cur_args = "boardsize=20 pieces={'X',0,10,'O',0,10,'-',0,20,-1} vcfg=(X==O||X==O+1) player=0";
	generic_hash_init(20, c4, vcfg_c4, 0);
	int cD = generic_hash_cur_context();
	row_max();
	const char *cb[] = {"--------------------", "X-------------------", "-------------------X", "XO------------------",
	                    "XOXOXOXOXOXOXOXOXOXO", "OXOXOXOXOXOXOXOXOXOX", "XXXXXXXXXXOOOOOOOOOO", "X----O----X----O----",
	                    "XXO--OX-------------"};
	for (unsigned i = 0; i < sizeof cb / sizeof *cb; i++) { row_hash(cb[i], 1); row_hash(cb[i], 2); }

	/* E: hexapawn 3x3 (mhexapawn's layout: 'B','W','-'), both turns, no vcfg */
	int hp[] = {'B', 0, 3, 'W', 0, 3, '-', 0, 9, -1};
	cur_case = "hexapawn3_both"; cur_args = "boardsize=9 pieces={'B',0,3,'W',0,3,'-',0,9,-1} vcfg=NULL player=0";
	generic_hash_init(9, hp, NULL, 0);
	int cE = generic_hash_cur_context();
	row_max();
	row_hash("BBB---WWW", 1); row_hash("BBB---WWW", 2); row_hash("B-B-B-WWW", 1); row_hash("---------", 2);

	/* F: context switching: back to A, then E, then B, hashing the same boards */
	cur_case = "switch_to_A"; cur_args = "generic_hash_context_switch(context of ttt_both)";
	generic_hash_context_switch(cA);
	row_max(); row_hash("XO-------", 1); row_hash("XO-------", 2);
	cur_case = "switch_to_E"; cur_args = "generic_hash_context_switch(context of hexapawn3_both)";
	generic_hash_context_switch(cE);
	row_max(); row_hash("BBB---WWW", 2);
	cur_case = "switch_to_B"; cur_args = "generic_hash_context_switch(context of ttt_vcfg_p1)";
	generic_hash_context_switch(cB);
	row_max(); row_hash("XO-------", 1);
	cur_case = "switch_to_C"; cur_args = "generic_hash_context_switch(context of ttt_p2)";
	generic_hash_context_switch(cC);
	row_max(); row_hash("XO-------", 2);
	cur_case = "switch_to_D"; cur_args = "generic_hash_context_switch(context of c4_4x5_both)";
	generic_hash_context_switch(cD);
	row_max(); row_hash("XO------------------", 2);

	/* G: a fixed-count tier-like layout (mtttier tier 7: 1 O, 1 X, 7 blanks, player 1) */
	int t7[] = {'O', 1, 1, 'X', 1, 1, '-', 7, 7, -1};
	cur_case = "tier_fixed_counts"; cur_args = "boardsize=9 pieces={'O',1,1,'X',1,1,'-',7,7,-1} vcfg=NULL player=1";
	generic_hash_init(9, t7, NULL, 1);
	row_max(); row_hash("OX-------", 1); row_hash("XO-------", 1); row_hash("-------XO", 1); row_hash("----O---X", 1);

	/* H: nonzero minimums and a piece order with blank first */
	int mn[] = {'-', 0, 4, 'a', 1, 2, 'b', 0, 1, -1};
	cur_case = "mins_blank_first"; cur_args = "boardsize=4 pieces={'-',0,4,'a',1,2,'b',0,1,-1} vcfg=NULL player=0";
	generic_hash_init(4, mn, NULL, 0);
	row_max(); rows_all(4);

	/* I: the whole numbering of a small layout, both turns */
	int sm[] = {'X', 0, 2, 'O', 0, 1, '-', 0, 3, -1};
	cur_case = "small_full"; cur_args = "boardsize=3 pieces={'X',0,2,'O',0,1,'-',0,3,-1} vcfg=NULL player=0";
	generic_hash_init(3, sm, NULL, 0);
	row_max(); rows_all(3);
	row_hash("XO-", 1); row_hash("XO-", 2);
	return 0;
}

/* Linked into a Classic game binary (whose main is Classic's): run before Classic's main and exit. */
__attribute__((constructor)) static void hashref_ctor(void) {
	exit(hashref_main(0, NULL));
}
