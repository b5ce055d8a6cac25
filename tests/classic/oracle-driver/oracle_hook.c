/* oracle_hook.c: scratch helper linked into a GamesmanClassic game binary (never part of gamesman-rs).
 * At process exit (destructor), if ORACLE_OUT is set, appends one line of key=value fields describing
 * the solve that main() just did: start position, its value/remoteness, Classic's own analysis counts
 * (gAnalysis, filled by AnalyzePosition on every value store), a scan of the whole value database, and
 * a DFS over positions reachable from gInitialPosition (non-tier solves only). */
#include "gamesman.h"

extern REMOTENESS Remoteness(POSITION);
extern DB_Table *db_functions; /* raw store, no symmetry canonicalisation */

static const char *vname(VALUE v, REMOTENESS r) {
	switch (v) {
	case win: return "win";
	case lose: return "lose";
	case tie: return r == REMOTENESS_MAX ? "draw" : "tie";
	case drawwin: case drawlose: case drawdraw: return "draw";
	case undecided: return "undecided";
	default: return "other";
	}
}

static void dfs_counts(FILE *f) {
	POSITION n = gNumberOfPositions;
	if (n == 0 || n > ((POSITION)1 << 34)) { fprintf(f, "\treach=skipped_too_big"); return; }
	unsigned char *seen = calloc((size_t)(n / 8 + 1), 1);
	size_t cap = 1 << 16, sp = 0;
	POSITION *stack = malloc(cap * sizeof(POSITION));
	if (!seen || !stack) { fprintf(f, "\treach=skipped_nomem"); return; }
	POSITION start = gInitialPosition;
	if (gSymmetries && gCanonicalPosition) start = gCanonicalPosition(start);
	unsigned long long cnt = 0, w = 0, l = 0, t = 0, d = 0, u = 0, pw = 0, pl = 0, pt = 0, bad = 0, edges = 0;
	seen[start / 8] |= 1 << (start % 8);
	stack[sp++] = start;
	while (sp) {
		POSITION p = stack[--sp];
		cnt++;
		VALUE v = GetValueOfPosition(p);
		REMOTENESS r = Remoteness(p);
		if (v == win) w++; else if (v == lose) l++;
		else if (v == tie) { if (r == REMOTENESS_MAX) d++; else t++; }
		else if (v == drawwin || v == drawlose || v == drawdraw) d++;
		else u++;
		VALUE pv = Primitive(p);
		if (pv != undecided) {
			if (pv == win) pw++; else if (pv == lose) pl++; else if (pv == tie) pt++;
			continue;
		}
		MOVELIST *head = GenerateMoves(p), *m;
		for (m = head; m; m = m->next) {
			POSITION c = DoMove(p, m->move);
			edges++;
			if (gSymmetries && gCanonicalPosition) c = gCanonicalPosition(c);
			if (c >= n) { bad++; continue; }
			if (seen[c / 8] & (1 << (c % 8))) continue;
			seen[c / 8] |= 1 << (c % 8);
			if (sp == cap) { cap *= 2; stack = realloc(stack, cap * sizeof(POSITION)); }
			stack[sp++] = c;
		}
		FreeMoveList(head);
	}
	fprintf(f, "\treach=%llu\treach_win=%llu\treach_lose=%llu\treach_tie=%llu\treach_draw=%llu\treach_undecided=%llu"
	        "\treach_prim_win=%llu\treach_prim_lose=%llu\treach_prim_tie=%llu\treach_edges=%llu\treach_bad_child=%llu",
	        cnt, w, l, t, d, u, pw, pl, pt, edges, bad);
	free(seen); free(stack);
}

static void db_scan(FILE *f) {
	POSITION n = gNumberOfPositions, i;
	if (n > ((POSITION)1 << 32)) { fprintf(f, "\tdb=skipped_too_big"); return; }
	unsigned long long w = 0, l = 0, t = 0, d = 0;
	for (i = 0; i < n; i++) {
		VALUE v = db_functions->get_value(i);
		if (v == undecided) continue;
		if (v == win) w++; else if (v == lose) l++;
		else if (v == tie) { if (db_functions->get_remoteness(i) == REMOTENESS_MAX) d++; else t++; }
		else if (v == drawwin || v == drawlose || v == drawdraw) d++;
	}
	fprintf(f, "\tdb=%llu\tdb_win=%llu\tdb_lose=%llu\tdb_tie=%llu\tdb_draw=%llu", w + l + t + d, w, l, t, d);
}

__attribute__((destructor)) static void oracle_report(void) {
	const char *out = getenv("ORACLE_OUT");
	if (!out) return;
	FILE *f = fopen(out, "a");
	if (!f) return;
	BOOLEAN tier = kSupportsTierGamesman && gTierGamesman;
	fprintf(f, "name=%s\tdbname=%s\toption=%d\tnum_options=%d\tpartizan=%d\tloopy=%d\ttier=%d\tsymmetries=%d\tnum_positions=%llu",
	        kGameName, kDBName, getOption(), NumberOfOptions(), (int)kPartizan, (int)kLoopy, (int)tier, (int)gSymmetries,
	        (unsigned long long)gNumberOfPositions);
	if (tier)
		fprintf(f, "\tinitial_tier=%llu\tinitial_tier_position=%llu", (unsigned long long)gInitialTier,
		        (unsigned long long)gInitialTierPosition);
	if (!gAnalysisLoaded) { fprintf(f, "\tstatus=not_solved\n"); fclose(f); return; }
	VALUE v = GetValueOfPosition(gInitialPosition);
	REMOTENESS r = Remoteness(gInitialPosition);
	const char *vn = vname(v, r);
	fprintf(f, "\tstatus=solved\tinitial_position=%llu\tvalue=%s\tremoteness=", (unsigned long long)gInitialPosition, vn);
	if (!strcmp(vn, "draw")) fprintf(f, "inf"); else fprintf(f, "%d", (int)r);
	fprintf(f, "\traw_value=%d\traw_remoteness=%d\tseconds=%u", (int)v, (int)r, gAnalysis.TimeToSolve);
	fprintf(f, "\tan_total=%llu\tan_win=%llu\tan_lose=%llu\tan_tie=%llu\tan_draw=%llu\tan_unknown=%llu\tan_prim_win=%llu"
	        "\tan_prim_lose=%llu\tan_prim_tie=%llu\tan_moves=%llu\tan_largest_remoteness=%d",
	        gAnalysis.TotalPositions, gAnalysis.WinCount, gAnalysis.LoseCount, gAnalysis.TieCount, gAnalysis.Draws,
	        gAnalysis.UnknownCount, gAnalysis.PrimitiveWins, gAnalysis.PrimitiveLoses, gAnalysis.PrimitiveTies,
	        gAnalysis.TotalMoves, (int)gAnalysis.LargestFoundRemoteness);
	fflush(f);
	if (!tier) { db_scan(f); fflush(f); dfs_counts(f); }
	fprintf(f, "\n");
	fclose(f);
}
