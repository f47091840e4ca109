/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Text that goes into an HTML document's <script type="application/json">
 * block.  Such a block ends at the first "</script" whatever the JSON says,
 * and "<!--" changes how the parser reads it, so a cgroup named
 * "</script><script>..." would end the data and run its own code.  JSON
 * already escapes quotes and controls; this turns every '<', '>' and '&' into
 * \u003c, \u003e, \u0026 (they occur only inside strings in valid JSON, where
 * the escape reads back as the same character), and U+2028/U+2029 into
 * \u2028/\u2029 (line terminators to older JavaScript parsers).
 */
#ifndef TMACG_HTML_ESCAPE_H
#define TMACG_HTML_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Writes json[0..len) escaped for a script block: 0, or -EIO (-EPIPE) when f failed. */
int html_script_json_write(FILE *f, const char *json, size_t len);

#endif
