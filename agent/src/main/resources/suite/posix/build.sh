# Compiles every program of the suite with the target's own compiler. For each program prints
# "perftrack-built NAME" or "perftrack-failed NAME" (the compiler's messages are in NAME.err).
CC=${CC:-cc}
command -v "$CC" > /dev/null 2>&1 || CC=gcc
echo "perftrack-compiler $("$CC" --version 2>&1 | head -n 1)"
for src in "$@"; do
  name=${src%.c}
  if "$CC" -O2 -o "$name" "$src" > "$name.err" 2>&1; then
    echo "perftrack-built $name"
  else
    echo "perftrack-failed $name"
  fi
done
