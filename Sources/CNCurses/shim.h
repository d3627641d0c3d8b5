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
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int cnc_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline int cnc_wcwidth(wchar_t c) { return wcwidth(c); }
static inline void cnc_set_escdelay(int ms) { set_escdelay(ms); }
#endif
