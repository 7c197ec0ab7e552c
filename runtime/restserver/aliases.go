package restserver

import "github.com/ucpgen/ucpgen/runtime/ucpcore"

// AddProfileService moved to runtime/ucpcore; this name lets generated
// code move in its own step.
var AddProfileService = ucpcore.AddProfileService
