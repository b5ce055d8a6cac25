#!/bin/bash
# run_one.sh EXE TIMEOUT [OPTION] : one bounded Classic solve; appends one line to $RAW
exe=$1; to=$2; opt=$3
base=/work/classic-oracle
d=$base/scratch/$exe.${opt:-default}; rm -rf $d; mkdir -p $d $base/logs
tmp=$d/oracle.txt
args=(--nodb)
case "$opt" in "") ;; notiers) args+=(--notiers);; *) args+=(--option "$opt");; esac
args+=(--solve)
start=$(date +%s.%N)
( cd $d && ulimit -v ${VLIMIT:-4000000} && ORACLE_OUT=$tmp exec nice -n 10 timeout -s KILL $to $base/bin/$exe "${args[@]}" </dev/null ) > $base/logs/$exe.${opt:-default}.out 2>&1
rc=$?
end=$(date +%s.%N)
wall=$(echo "$end - $start" | bc)
line=$(head -c 4000 $tmp 2>/dev/null | head -1)
case $rc in
  0) st=ok;; 137) st=timeout_or_killed;; 139) st=segfault;; 134) st=abort;; *) st=exit$rc;;
esac
printf 'exe=%s\treq_option=%s\trc=%s\trun=%s\twall=%.2f\tbound=%s\tvlimit_kb=%s\t%s\n' "$exe" "${opt:-default}" "$rc" "$st" "$wall" "$to" "${VLIMIT:-4000000}" "$line" >> $RAW
rm -rf $d
