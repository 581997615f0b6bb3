#!/bin/bash
# build-kernel.sh - configure (once) and build one kernel in its object directory.
#
# Usage: build-kernel.sh TREE OBJDIR KARCH IMAGE FRAGMENT...
#
# Environment: CROSS_COMPILE, KERNEL_CC, KERNEL_HOSTCC (make's CC and HOSTCC,
# passed when set), JOBS; BASE_CONFIG, ORIGIN_CONFIG, CHECK_OPTIONS below;
# KERNEL_CCACHE, a directory: the compilers run through ccache with their
# cache there.  They do so by name (links to ccache first in PATH), so the
# kernel's command lines stay as they are and turning the cache on or off
# rebuilds nothing.  Paths under the directory's parent (the build
# directory) are hashed relative, so another object directory or a tree at
# another version hits the same entries where the sources are the same; a
# compiler is known by its content.  The build's hits and misses go to
# OBJDIR/.leap-ccache.
# The configuration is tinyconfig (allnoconfig on trees without it), or the
# file BASE_CONFIG when set, plus the fragments, merged with the tree's own
# merge_config.sh and finished with olddefconfig (`yes "" | make oldconfig` on
# trees without it).  It is made again only when its inputs change.  Every
# option the fragments ask for (the last one that names it wins) must
# survive in the final .config, or the build stops naming the missing ones.  The options CHECK_OPTIONS names (without
# CONFIG_) are written to OBJDIR/.leap-options as the final .config has them;
# with ORIGIN_CONFIG (the file BASE_CONFIG was made from), each must have the
# value it has there, or the build stops naming the ones that changed.
# TREE_STAMP names the tree (package and version): an object directory
# built from another (or from one it did not record) is emptied first,
# since its objects are newer than the files of a tree extracted later and
# make would keep them.
# The seconds the image's own make took (the compiler's work, without the
# configuration step around it) go to OBJDIR/.leap-make-s.
set -eu

die() { echo "build-kernel: $*" >&2; exit 1; }
[ $# -ge 5 ] || { echo "usage: build-kernel.sh TREE OBJDIR KARCH IMAGE FRAGMENT..." >&2; exit 2; }
tree=$(realpath -m "$1") obj=$(realpath -m "$2") karch=$3 image=$4
shift 4
[ -f "$tree/Makefile" ] || die "$tree is not a kernel tree"

mkargs=(-C "$tree" "O=$obj" "ARCH=$karch" -s)
[ -n "${CROSS_COMPILE:-}" ] && mkargs+=("CROSS_COMPILE=$CROSS_COMPILE")
[ -n "${KERNEL_CC:-}" ] && mkargs+=("CC=$KERNEL_CC")
[ -n "${KERNEL_HOSTCC:-}" ] && mkargs+=("HOSTCC=$KERNEL_HOSTCC")
mkdir -p "$obj"
jobs=${JOBS:-$(nproc)}
rm -f "$obj/.leap-make-s"
if [ -n "${TREE_STAMP:-}" ]; then
	# Without a stamp (built before there were stamps), the tree is unknown.
	was=$(cat "$obj/.leap-tree" 2>/dev/null || true)
	if [ "$was" != "$TREE_STAMP" ] && [ -n "$(ls -A "$obj")" ]; then
		echo "build-kernel: $obj was built from ${was:-a tree it did not record}, the tree is now $TREE_STAMP: building it afresh"
		find "$obj" -mindepth 1 -delete
	fi
	echo "$TREE_STAMP" >"$obj/.leap-tree"
fi
rm -f "$obj/.leap-ccache"
if [ -n "${KERNEL_CCACHE:-}" ]; then
	ccache=$(command -v ccache) || die "KERNEL_CCACHE is set but there is no ccache: apt-get install ccache"
	mkdir -p "$KERNEL_CCACHE/bin"
	for c in "${CROSS_COMPILE:-}gcc" gcc "${KERNEL_CC:-}" "${KERNEL_HOSTCC:-}"; do
		case "$c" in "" | */* | *" "*) ;; *) ln -sfn "$ccache" "$KERNEL_CCACHE/bin/$c" ;; esac
	done
	CCACHE_BASEDIR=$(dirname "$(realpath -m "$KERNEL_CCACHE")")
	export PATH="$KERNEL_CCACHE/bin:$PATH" CCACHE_DIR=$KERNEL_CCACHE CCACHE_BASEDIR
	export CCACHE_COMPILERCHECK=content CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
	ccache -z >/dev/null
fi

stamp=$obj/.leap-config-inputs
base_config=${BASE_CONFIG:-} origin=${ORIGIN_CONFIG:-}
inputs=$( { printf '%s\n' "${mkargs[@]}" "${CHECK_OPTIONS:-}" "$origin"; cat "$@" ${base_config:+"$base_config"}; } | sha256sum | cut -c1-16)
# A native build says so: some vendor trees default CROSS_COMPILE in their
# Makefile (a 3.2.0 tree seen here names arm-linux-gnueabihf-).
[ -n "${CROSS_COMPILE:-}" ] || mkargs+=("CROSS_COMPILE=")
if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$inputs" ]; then
	rm -f "$stamp"
	if [ -n "$base_config" ]; then
		cp "$base_config" "$obj/.config"
	else
		if [ -f "$tree/kernel/configs/tiny.config" ]; then base=tinyconfig; else base=allnoconfig; fi
		# -j builds kconfig's own tools in parallel (6.1: 7.4 -> 5.8 s).
		make "${mkargs[@]}" -j"$jobs" "$base" >/dev/null
	fi
	# Run in the object directory: merge_config.sh writes ./.config there,
	# also in trees whose merge_config.sh has no -O (before 3.11).
	frags=()
	for f in "$@"; do frags+=("$(realpath "$f")"); done
	# Through sh: a tree unpacked without modes may have lost its exec bit.
	(cd "$obj" && sh "$tree/scripts/kconfig/merge_config.sh" -m .config "${frags[@]}") >"$obj/.merge.log" 2>&1 \
		|| { cat "$obj/.merge.log" >&2; die "merge_config.sh failed"; }
	if grep -q '^olddefconfig:' "$tree/scripts/kconfig/Makefile"; then
		make "${mkargs[@]}" -j"$jobs" olddefconfig >/dev/null
	else
		yes "" | make "${mkargs[@]}" oldconfig >/dev/null
	fi
	# Each option as the last fragment that names it asks (merge_config.sh's
	# order: an arch's fragment after the common one wins); "not set" holds
	# too where the option is not in the .config at all (the arch has no such
	# symbol: CONFIG_64BIT on arm).
	missing=$(grep -h -E '^(CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set)$' "$@" \
		| awk '{ k = $0; sub(/^# /, "", k); sub(/[= ].*/, "", k); if (!(k in v)) o[++n] = k; v[k] = $0 }
			END { for (i = 1; i <= n; i++) print v[o[i]] }' \
		| while IFS= read -r line; do
			case "$line" in
			*=n | "# "*) o=${line#\# }; o=${o%=n}; o=${o% is not set}
				! grep -q "^$o=" "$obj/.config" || printf ' %s' "$line" ;;
			*) grep -qxF "$line" "$obj/.config" || printf ' %s' "$line" ;;
			esac
		done)
	[ -z "$missing" ] || die "not in the final .config of $obj (a dependency is missing):$missing"
	# The timekeeping options: y, m, a value, or n (not set, or absent).
	opt() { sed -n -e "s/^CONFIG_$2=//p" -e "s/^# CONFIG_$2 is not set\$/n/p" "$1" | tail -n 1 | grep . || echo n; }
	changed=""
	for o in ${CHECK_OPTIONS:-}; do
		v=$(opt "$obj/.config" "$o")
		echo "CONFIG_$o=$v"
		if [ -n "$origin" ] && [ "$(opt "$origin" "$o")" != "$v" ]; then
			changed="$changed CONFIG_$o ($(opt "$origin" "$o") there, $v here)"
		fi
	done >"$obj/.leap-options"
	[ -z "$changed" ] || die "the timekeeping options of $origin did not survive the configuration step:$changed"
	echo "$inputs" >"$stamp"
fi

start=$(date +%s)
# kbuild's one line per object (scripts/progress.sh counts them), not -s.
make "${mkargs[@]}" --no-silent -j"$jobs" "$(basename "$image")"
[ -f "$obj/$image" ] || die "no $image after the build in $obj"
echo $(($(date +%s) - start)) >"$obj/.leap-make-s"
[ -z "${KERNEL_CCACHE:-}" ] || ccache --print-stats | awk -F'\t' '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/ { print "ccache " $1 " " $2 }' >"$obj/.leap-ccache"
