//go:build race

package mcptool

// raceDetector reports whether the test binary runs with the race
// detector, which changes what serving a request allocates.
const raceDetector = true
