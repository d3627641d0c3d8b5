#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
/* The wide-character API (add_wch, get_wch, setcchar) needs these before curses.h. */
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <signal.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* Function-like macros and C globals are not importable into Swift 6; these are. */
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_color_pair(int n) { return COLOR_PAIR(n); }
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline WINDOW *cnc_curscr(void) { return curscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int cnc_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline int cnc_wcwidth(wchar_t c) { return wcwidth(c); }
static inline void cnc_set_escdelay(int ms) { set_escdelay(ms); }

/* Mouse masks (function-like macros in curses.h). */
static inline mmask_t cnc_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cnc_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cnc_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cnc_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cnc_button5_pressed(void) { return BUTTON5_PRESSED; }

/* 1 when the LC_CTYPE locale in effect encodes text as UTF-8. */
static inline int cnc_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/* Signal dispositions without the platform's sigaction union in Swift.
   `handler` NULL means SIG_DFL. Returns 0 or -1 (errno set). */
static inline int cnc_sigaction_handler(int signo, void (*handler)(int), int flags, struct sigaction *old) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler ? handler : SIG_DFL;
    sigemptyset(&action.sa_mask);
    action.sa_flags = flags;
    return sigaction(signo, &action, old);
}
static inline int cnc_sigaction_restore(int signo, const struct sigaction *saved) {
    return sigaction(signo, saved, NULL);
}
/* 1 when a saved disposition is SIG_IGN (e.g. SIGHUP under nohup): keep ignoring it. */
static inline int cnc_sigaction_is_ignored(const struct sigaction *saved) {
    return !(saved->sa_flags & SA_SIGINFO) && saved->sa_handler == SIG_IGN;
}
static inline int cnc_sa_restart(void) { return SA_RESTART; }
static inline int cnc_sa_resethand(void) { return SA_RESETHAND; }
static inline int cnc_sa_nodefer(void) { return SA_NODEFER; }
/* Unblocks one signal for this thread (after a handler that left it blocked). */
static inline void cnc_unblock_signal(int signo) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* term.h defines macros named after every capability (lines, columns, …):
   include it last so it cannot rename anything above. */
#include <ncursesw/term.h>

/* Looks `name` up in the terminfo database without initialising curses.
   Returns 1 when found (then *addressable tells whether it has `cup`),
   0 when the terminal type is unknown, -1 when there is no terminfo database. */
static inline int cnc_probe_terminal(const char *name, int fd, int *addressable) {
    int status = 0;
    *addressable = 0;
    if (setupterm(name, fd, &status) != OK) return status == 0 ? 0 : (status < 0 ? -1 : 1);
    const char *cup = tigetstr("cup");
    *addressable = (cup != NULL && cup != (const char *)-1);
    TERMINAL *probed = set_curterm(NULL);
    if (probed) del_curterm(probed);
    return 1;
}

/* A string capability of the current terminal, or NULL when absent. */
static inline const char *cnc_tigetstr(const char *capability) {
    const char *value = tigetstr(capability);
    return (value == (const char *)-1) ? NULL : value;
}
#endif
