/*
 * hash_probe.c: checks the GamesmanClassic layer's generic hash against values of
 * Classic's own hash (tests/classic/hash_reference.tsv, made by the oracle; see
 * ORACLE.md). Built as a program with the layer's sources (the README's command
 * without -shared, this file in place of a module) and run with the reference
 * file's path as its argument.
 *
 * For every row (max_pos, hash, unhash, after generic_hash_init or a context switch)
 * it prints a "MISMATCH" line with both values, then a summary; exits 1 on any
 * mismatch or a row it cannot read. It must not know the expected values itself.
 */
#include "gamesman.h"

static int ttt_vcfg(int *cfg) { return cfg[0] == cfg[1] || cfg[0] == cfg[1] + 1; }

/* Runs generic_hash_init for "boardsize=N pieces={'X',0,5,...,-1} vcfg=V player=P". */
static int init_from(const char *args) {
    int boardsize = 0, player = 0, pieces[64], n = 0;
    const char *p = strstr(args, "boardsize=");
    if (p == NULL || sscanf(p, "boardsize=%d", &boardsize) != 1) return -1;
    p = strstr(args, "pieces={");
    if (p == NULL) return -1;
    p += strlen("pieces={");
    while (*p != '}' && n < 60) {
        if (*p == '\'') {
            pieces[n++] = (unsigned char)p[1];
            p += 3;
        } else if (*p == ',' || *p == ' ') {
            p++;
        } else {
            char *end;
            pieces[n++] = (int)strtol(p, &end, 10);
            if (end == p) return -1;
            p = end;
        }
    }
    const char *v = strstr(args, "vcfg=");
    if (v == NULL) return -1;
    int (*vcfg)(int *) = NULL;
    if (strncmp(v, "vcfg=NULL", 9) == 0) vcfg = NULL;
    else if (strncmp(v, "vcfg=(X==O||X==O+1)", 19) == 0) vcfg = ttt_vcfg;
    else return -1;
    p = strstr(args, "player=");
    if (p == NULL || sscanf(p, "player=%d", &player) != 1) return -1;
    generic_hash_init(boardsize, pieces, vcfg, player);
    return 0;
}

int main(int argc, char **argv) {
    FILE *f = fopen(argc > 1 ? argv[1] : "tests/classic/hash_reference.tsv", "r");
    if (f == NULL) {
        perror("hash_reference.tsv");
        return 2;
    }
    char line[1024], last_case[128] = "";
    int rows = 0, bad = 0;
    int numbers[64]; /* the layer's context number for each reference context */
    for (int i = 0; i < 64; i++) numbers[i] = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        char *field[9];
        int nf = 0;
        for (char *s = line; nf < 9; nf++) {
            field[nf] = s;
            char *tab = strchr(s, '\t');
            if (tab == NULL) {
                nf++;
                break;
            }
            *tab = '\0';
            s = tab + 1;
        }
        if (nf < 9 || strcmp(field[0], "case") == 0) continue;
        int context = atoi(field[1]);
        if (context < 0 || context >= 64) {
            printf("UNREADABLE context %s\n", field[1]);
            bad++;
            continue;
        }
        if (strcmp(field[0], last_case) != 0) {
            snprintf(last_case, sizeof last_case, "%s", field[0]);
            if (strncmp(field[3], "generic_hash_context_switch", 27) == 0) {
                generic_hash_context_switch(numbers[context]);
            } else {
                if (init_from(field[3]) != 0) {
                    printf("UNREADABLE init %s\n", field[3]);
                    bad++;
                    continue;
                }
                numbers[context] = generic_hash_cur_context();
            }
        }
        rows++;
        unsigned long long want = strtoull(field[6], NULL, 10), got = 0;
        if (strcmp(field[2], "max_pos") == 0) {
            got = generic_hash_max_pos();
        } else if (strcmp(field[2], "hash") == 0) {
            got = generic_hash_hash(field[4], atoi(field[5]));
            char back[128] = {0};
            generic_hash_unhash(got, back);
            if (strcmp(back, field[7]) != 0 || generic_hash_turn(got) != atoi(field[8])) {
                printf("MISMATCH %s unhash(%llu) = %s turn %d, Classic %s turn %s\n", field[0], got, back,
                       generic_hash_turn(got), field[7], field[8]);
                bad++;
            }
        } else if (strcmp(field[2], "unhash") == 0) {
            char back[128] = {0};
            generic_hash_unhash(want, back);
            got = want;
            if (strcmp(back, field[7]) != 0 || generic_hash_turn(want) != atoi(field[8])) {
                printf("MISMATCH %s unhash(%llu) = %s turn %d, Classic %s turn %s\n", field[0], want, back,
                       generic_hash_turn(want), field[7], field[8]);
                bad++;
            }
        } else {
            printf("UNREADABLE kind %s\n", field[2]);
            bad++;
            continue;
        }
        if (got != want) {
            printf("MISMATCH %s %s %s turn %s: %llu, Classic %llu\n", field[0], field[2], field[4], field[5], got, want);
            bad++;
        }
    }
    printf("%d rows, %d mismatches\n", rows, bad);
    return bad == 0 && rows > 0 ? 0 : 1;
}
