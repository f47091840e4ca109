/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef TMACG_VERSION_H
#define TMACG_VERSION_H
#define TMACG_VERSION "0.1.0"
#endif
