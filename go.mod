module github.com/mdsearch/mdsearch

go 1.26.8
