/* nomove_wrap.c: a Primitive for a Classic game binary whose module was compiled with
 * -DPrimitive=ModulePrimitive: the module's answer, and "lose" where it says undecided but
 * GenerateMoves gives no move. Used to show that mfandan's and mjan's differences with the host are
 * their positions without moves (ORACLE.md, "Positions without moves"). */
#include "gamesman.h"
VALUE ModulePrimitive(POSITION);
VALUE Primitive(POSITION p) {
	VALUE v = ModulePrimitive(p);
	if (v != undecided) return v;
	MOVELIST *m = GenerateMoves(p);
	if (m == NULL) return lose;
	FreeMoveList(m);
	return undecided;
}
