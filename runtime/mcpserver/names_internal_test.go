package mcpserver

import (
	"testing"

	"github.com/ucpgen/ucpgen/internal/servicenames"
)

// TestNamesNoServiceMember keeps this package free of Location member names
// and of a "meta" literal outside MetaParam (see servicenames.Check).
func TestNamesNoServiceMember(t *testing.T) { servicenames.Check(t) }
