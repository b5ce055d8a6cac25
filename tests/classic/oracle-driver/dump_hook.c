/* dump_hook.c: linked into a Classic game binary (as oracle_hook.c); at exit, if $DUMP_OUT is set,
 * writes "position value remoteness" (Classic's raw VALUE and REMOTENESS) for every position
 * reachable from gInitialPosition, to compare with `host export --reachable` position by position. */
#include "gamesman.h"
extern REMOTENESS Remoteness(POSITION);
__attribute__((destructor)) static void dump(void) {
	const char *out = getenv("DUMP_OUT");
	if (!out || !gAnalysisLoaded) return;
	FILE *f = fopen(out, "w");
	POSITION n = gNumberOfPositions;
	unsigned char *seen = calloc(n / 8 + 1, 1);
	POSITION *stack = malloc(n * sizeof(POSITION)); size_t sp = 0;
	seen[gInitialPosition / 8] |= 1 << (gInitialPosition % 8); stack[sp++] = gInitialPosition;
	while (sp) {
		POSITION p = stack[--sp];
		VALUE v = GetValueOfPosition(p); REMOTENESS r = Remoteness(p);
		fprintf(f, "%llu %d %d\n", (unsigned long long)p, (int)v, (int)r);
		if (Primitive(p) != undecided) continue;
		MOVELIST *head = GenerateMoves(p);
		for (MOVELIST *m = head; m; m = m->next) {
			POSITION c = DoMove(p, m->move);
			if (seen[c / 8] & (1 << (c % 8))) continue;
			seen[c / 8] |= 1 << (c % 8); stack[sp++] = c;
		}
		FreeMoveList(head);
	}
	fclose(f);
}
