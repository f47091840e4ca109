// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "counter_assign.h"

/* Events k.. on the counters outside used: every choice tried. */
static bool assign_from(const uint32_t *mask, int n, int k, int gp, uint32_t used)
{
	if (k == n)
		return true;
	for (int c = 0; c < gp; c++)
		if ((mask[k] & (1u << c)) && !(used & (1u << c)) &&
		    assign_from(mask, n, k + 1, gp, used | (1u << c)))
			return true;
	return false;
}

bool counter_assign(const uint32_t *mask, int n, int gp)
{
	return assign_from(mask, n, 0, gp, 0);
}
