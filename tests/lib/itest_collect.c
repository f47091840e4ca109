// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "itest_collect.h"

#include "collect/acc_delta.h"

void itest_collect_one(uint64_t id, const struct tmacg_acc *d, void *ctx)
{
	struct itest_found *f = ctx;

	if (id != f->want)
		return;
	f->seen++;
	acc_add(&f->layout, &f->sum.acc, d);
}
