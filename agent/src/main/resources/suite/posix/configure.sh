# configure (seed 000): what a configure script does, $1 times: a few hundred short processes,
# tests, sed and grep over small files.
n=$1
while [ "$n" -gt 0 ]; do
  rm -rf conf.d && mkdir conf.d && cd conf.d || exit 1
  k=0
  while [ $k -lt 40 ]; do
    echo "#define HAVE_HEADER_$k 1" > conftest.h
    if grep "HAVE_HEADER_$k" conftest.h > /dev/null; then
      sed -e "s/HAVE_/USE_/" conftest.h >> confdefs.h
    fi
    test -f conftest.h && rm -f conftest.h
    v=`expr $k + 1`
    echo "checking for feature $v... yes" | cat >> config.log
    k=$v
  done
  sort confdefs.h | uniq > config.h
  cd .. || exit 1
  n=`expr $n - 1`
done
rm -rf conf.d
