/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The live view's tests: no line of a frame wider than the screen. */
#ifndef TMACG_FRAME_WIDTH_H
#define TMACG_FRAME_WIDTH_H

/*
 * Fails the running cmocka test unless every line of frame takes at most
 * width columns (term_width); prints each line, to show the frame that
 * failed.  Returns the number of lines.
 */
int frame_check_widths(const char *frame, int width);

#endif
