module junction.dev/bench/loadgen

go 1.24
