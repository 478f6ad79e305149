#!/bin/sh
# As the official Bun image's entrypoint: a flag, an unknown command or a script that is not executable runs under bun.
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- /usr/local/bin/bun "$@"
fi
exec "$@"
