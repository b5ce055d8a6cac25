/*
 * classic_guard.c: every call into a Classic module runs inside a call frame, so that
 * a module ending the process becomes an error of that call instead of a dead host.
 *
 * Caught (the call returns GAMESMAN_ERROR with the reason, the host reports it):
 *   - BadElse(name) and ExitStageRight(), which Classic modules call on impossible
 *     cases and which end the process in Classic;
 *   - exit(status) called from the module's own code: this file defines exit() with
 *     hidden visibility, so every call to exit in this library (the module's and the
 *     layer's) binds to it at link time, with no extra linker flag;
 *   - abort() from the module's code and failed assert()s (glibc's __assert_fail),
 *     the same way.
 * Not caught: exit/abort called from inside other libraries (libc's own), _exit(),
 * signals such as a segmentation fault, and infinite loops. A call that was jumped
 * out of leaves the module's globals as they were at that point; the host stops at
 * the reported error.
 *
 * While a call runs, the module's stdout goes to stderr (its chatter must not mix
 * with the host's answers), except while a text is captured, and its stdin is a
 * stream that ends the call at the first read ("the module read standard input in
 * <function>"): a module asking a user for input (a menu, a start position) inside a
 * call from the host would otherwise wait or spin on end-of-file forever.
 */
#define _GNU_SOURCE /* fopencookie */
#include "classic_internal.h"

/* Where the C library lets a program assign `stdout` (glibc, Apple's libc): there the
 * module's output can be redirected and captured. Elsewhere (musl declares stdout
 * const) the module prints where it likes and boards fall back to position numbers. */
#if defined(__GLIBC__) || defined(__APPLE__)
#define SET_STDOUT(stream) (stdout = (stream))
#define SET_STDIN(stream) (stdin = (stream))
#define CAN_SET_STDOUT 1
#else
#define SET_STDOUT(stream) ((void)(stream))
#define SET_STDIN(stream) ((void)(stream))
#define CAN_SET_STDOUT 0
#endif

static void jump_out(int status, const char *format, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* The stdin of calls: reading it ends the call. A stream jumped out of mid-read is
 * left behind (stdio may hold its lock and half a state) and a new one made. */
static FILE *no_input = NULL;

#if CAN_SET_STDOUT
static ssize_t refuse_read(void *cookie, char *buf, size_t size) {
    (void)cookie, (void)buf, (void)size;
    no_input = NULL;
    jump_out(1, "the module read standard input in %s (a Classic module's interactive part: the host never gives it "
                "typed input)",
             classic_current_call() != NULL ? classic_current_call()->function : "?");
}

static FILE *input_stream(void) {
    if (no_input == NULL) {
        cookie_io_functions_t io = {refuse_read, NULL, NULL, NULL};
        no_input = fopencookie(NULL, "r", io);
        if (no_input != NULL) setvbuf(no_input, NULL, _IONBF, 0);
    }
    return no_input;
}
#endif

static _Thread_local struct classic_call *current_call = NULL;

struct classic_call *classic_current_call(void) { return current_call; }

void classic_enter(struct classic_call *call, const char *function) {
    call->function = function;
    call->outer = current_call;
    call->saved_stdout = NULL;
    call->capture = NULL;
    call->capture_text = NULL;
    call->reason[0] = '\0';
    call->saved_stdin = NULL;
    if (call->outer == NULL) {
        /* Outermost call: the module's printing goes to stderr, its reading fails. */
        call->saved_stdout = stdout;
        SET_STDOUT(stderr);
#if CAN_SET_STDOUT
        FILE *in = input_stream();
        if (in != NULL) {
            call->saved_stdin = stdin;
            SET_STDIN(in);
        }
#endif
        classic_hash_enter();
    }
    current_call = call;
}

void classic_leave(struct classic_call *call) {
    current_call = call->outer;
    if (call->capture != NULL) {
        /* Jumped out of a capture: drop the text. */
        fclose(call->capture);
        free(call->capture_text);
        call->capture = NULL;
    }
    if (call->outer == NULL) {
        classic_hash_leave();
        fflush(stderr);
        SET_STDOUT(call->saved_stdout);
        if (call->saved_stdin != NULL) SET_STDIN(call->saved_stdin);
    }
}

int classic_caught(struct classic_call *call, gamesman_error *err) {
    classic_leave(call);
    return gamesman_fail(err, GAMESMAN_ERROR, "%s", call->reason);
}

const char *classic_note_function(const char *function) {
    if (current_call == NULL) return function;
    const char *previous = current_call->function;
    current_call->function = function;
    return previous;
}

/* Jumps back to the innermost call with `reason`; outside any call (the module's code
 * runs only inside calls, so this means a bug in the layer) it ends the process. */

static void jump_out(int status, const char *format, ...) {
    struct classic_call *call = current_call;
    char reason[sizeof call->reason];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    if (call == NULL) {
        fprintf(stderr, "GamesmanClassic module: %s outside a call from the host\n", reason);
        fflush(NULL);
        _Exit(status);
    }
    /* Back to the outermost call: the inner frames belong to the same host call. */
    while (call->outer != NULL) {
        if (call->capture != NULL && call->outer->capture == NULL) {
            call->outer->capture = call->capture;
            call->outer->capture_text = call->capture_text;
        }
        call = call->outer;
    }
    memcpy(call->reason, reason, sizeof reason);
    current_call = call;
    longjmp(call->jump, 1);
}

__attribute__((visibility("hidden"), noreturn)) void exit(int status) {
    const char *f = current_call != NULL ? current_call->function : "?";
    jump_out(status, "the module called exit(%d) in %s", status, f);
}

__attribute__((visibility("hidden"), noreturn)) void abort(void) {
    const char *f = current_call != NULL ? current_call->function : "?";
    jump_out(134, "the module called abort() in %s", f);
}

#ifdef __GLIBC__
/* What assert() calls in glibc when its condition fails. */
__attribute__((visibility("hidden"), noreturn)) void __assert_fail(const char *assertion, const char *file,
                                                                      unsigned int line, const char *function) {
    jump_out(134, "assertion `%s` failed in %s (%s:%u)", assertion, function, file, line);
}
#endif

CLASSIC_CORE void BadElse(STRING function) {
    jump_out(1, "the module reached an impossible case: BadElse(\"%s\")", function != NULL ? function : "");
}

CLASSIC_CORE void ExitStageRight(void) {
    const char *f = current_call != NULL ? current_call->function : "?";
    jump_out(0, "the module asked to quit (ExitStageRight) in %s", f);
}

CLASSIC_CORE void ExitStageRightErrorString(STRING errorMsg) {
    jump_out(1, "the module gave up: %s", errorMsg != NULL ? errorMsg : "");
}

void classic_no_input(const char *helper) {
    const char *f = current_call != NULL ? current_call->function : "?";
    jump_out(1, "the module asked for typed input (%s) in %s (a Classic module's interactive part: the host never "
                "gives it typed input)",
             helper, f);
}

int64_t classic_capture(char *buf, uint64_t capacity, void (*print)(void *), void *arg) {
    struct classic_call *call = current_call;
    if (!CAN_SET_STDOUT || call == NULL || call->capture != NULL) return -1;
    call->capture = open_memstream(&call->capture_text, &call->capture_len);
    if (call->capture == NULL) return -1;
    FILE *outside = stdout;
    SET_STDOUT(call->capture);
    print(arg);
    SET_STDOUT(outside);
    fclose(call->capture);
    call->capture = NULL;
    /* Without the blank lines Classic modules print around a board (the host lays out
     * its own), ending in one newline if there was any. */
    char *text = call->capture_text != NULL ? call->capture_text : "";
    while (*text == '\n' || *text == '\r') text++;
    size_t len = strlen(text);
    int had_newline = memchr(text, '\n', len) != NULL;
    while (len > 0 && isspace((unsigned char)text[len - 1])) len--;
    int64_t n = snprintf(buf, capacity, "%.*s%s", (int)len, text, had_newline && len > 0 ? "\n" : "");
    free(call->capture_text);
    call->capture_text = NULL;
    return n;
}
