//go:build !unix

package chunks

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
