# shell-test (seed 000): the same loop with [ ] (the test builtin); $1 iterations.
i=$1
while [ $i -gt 0 ]; do
  j=$(((i/3+i*3)**3))
  i=$((i-1))
done
