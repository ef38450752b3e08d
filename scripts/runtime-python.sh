#!/bin/sh
# Print the path of a Python of the Lambda runtime's version (default 3.12): `python3.12` on PATH when it
# runs, else pyenv's (a pyenv shim without that version selected does not run). Fails when there is none.
version=${1:-3.12}
for candidate in "$(command -v "python$version" 2>/dev/null)" \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version"*/bin/"python$version"; do
    [ -x "$candidate" ] || continue
    found=$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue
    if [ "$found" = "$version" ]; then
        echo "$candidate"
        exit 0
    fi
done
echo "no Python $version on PATH or in pyenv: install one (pyenv install $version) or put python$version on PATH" >&2
exit 1
