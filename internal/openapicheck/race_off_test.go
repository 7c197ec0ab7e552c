//go:build !race

package openapicheck

// raceBuild is true in a race-detector build, where Load must not run:
// libopenapi's model builder races inside the library (see Load).
const raceBuild = false
