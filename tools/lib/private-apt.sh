# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Sourced by tools/arm64-sysroot and tools/guest-kernels: apt with a state directory of
# tmacg's own, so it fetches .debs (apt-get download) of another architecture or another
# Debian release without touching this machine's dpkg state or its package lists.
#   tmacg_cache                the cache both share, outside build/ so `make clean` keeps
#                              it: $TMACG_CACHE, else /var/cache/tmacg as root or where
#                              it exists (`sudo deploy/install-deps.sh`, then `make arm64`
#                              as a user), else ~/.cache/tmacg
#   papt_init DIR ARCH [SOURCES]  a state in DIR for ARCH; SOURCES (a sources.list text)
#                              replaces the machine's sources when given
#   papt apt-get|apt-cache ARGS   runs the tool on that state
#   papt_update                apt-get update once (again only with --refresh)

tmacg_cache() {
	if [ -n "${TMACG_CACHE:-}" ]; then
		echo "$TMACG_CACHE"
	elif [ "$(id -u)" -eq 0 ] || [ -d /var/cache/tmacg ]; then
		echo /var/cache/tmacg
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/tmacg"
	fi
}

papt_init() { # DIR ARCH [SOURCES]
	papt_dir=$1 papt_arch=$2 papt_src=
	mkdir -p "$papt_dir/lists/partial" "$papt_dir/cache/archives/partial"
	: >"$papt_dir/status"
	if [ $# -ge 3 ]; then
		papt_src="$papt_dir/sources.list"
		printf '%s\n' "$3" >"$papt_src.new"
		# New sources (another suite): the lists fetched for the old ones are stale.
		cmp -s "$papt_src.new" "$papt_src" || rm -f "$papt_dir/lists/.updated"
		mv "$papt_src.new" "$papt_src"
	fi
}

papt() { # apt-get|apt-cache ARGS...
	papt_tool=$1
	shift
	if [ -n "$papt_src" ]; then
		set -- -o Dir::Etc::SourceList="$papt_src" -o Dir::Etc::SourceParts=/nonexistent "$@"
	fi
	"$papt_tool" -q -o APT::Architecture="$papt_arch" -o APT::Architectures::="$papt_arch" \
		-o Dir::State::Lists="$papt_dir/lists" -o Dir::State::status="$papt_dir/status" \
		-o Dir::Cache="$papt_dir/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

papt_update() { # [--refresh]
	[ "${1:-}" != --refresh ] && [ -e "$papt_dir/lists/.updated" ] && return 0
	papt apt-get update >/dev/null && touch "$papt_dir/lists/.updated"
}

# papt_fetch PKG: PKG's candidate .deb into the current directory unless it is there, then
# removes PKG's other .debs (older point releases), so the cache does not grow.  A version
# the mirror dropped since the lists were fetched: fetch the lists again (once per run),
# retry once; exit 1 when it is still not there.
# Prints the file's name.
papt_fetch() {
	for papt_try in 1 2; do
		papt_show=$(papt apt-cache show --no-all-versions "$1" 2>/dev/null || true)
		papt_ver=$(echo "$papt_show" | sed -n 's/^Version: //p')
		papt_deb="${1}_$(echo "$papt_ver" | sed 's/:/%3a/g')_$(echo "$papt_show" |
			sed -n 's/^Architecture: //p').deb"
		if [ -n "$papt_ver" ]; then
			[ -s "$papt_deb" ] && break
			papt apt-get download "$1=$papt_ver" >/dev/null 2>&1 && break
		fi
		# Once per run: a second refresh would fetch the same lists.
		[ "$papt_try" = 1 ] && [ -z "${papt_refreshed:-}" ] || return 1
		papt_update --refresh && papt_refreshed=1 || return 1
	done
	for papt_old in "$1"_*.deb; do
		[ "$papt_old" = "$papt_deb" ] || rm -f -- "$papt_old"
	done
	echo "$papt_deb"
}
