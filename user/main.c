// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdio.h>
#include "tmacg.skel.h"

int main(void)
{
	fprintf(stderr, "tmacg: not built yet\n");
	return 1;
}
