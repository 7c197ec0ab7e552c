package mcpserver

import "github.com/ucpgen/ucpgen/runtime/ucpcore"

// Temporary names for what moved to runtime/ucpcore, so callers move in
// their own step.
type (
	Options           = ucpcore.Options
	Tool              = ucpcore.Tool
	Param             = ucpcore.Param
	Run               = ucpcore.Run
	Budget            = ucpcore.Budget
	BudgetOptions     = ucpcore.BudgetOptions
	Admission         = ucpcore.Admission
	RateLimit         = ucpcore.RateLimit
	ProfileService    = ucpcore.ProfileService
	ProfileCapability = ucpcore.ProfileCapability
	SupportedVersion  = ucpcore.SupportedVersion
	Endpoint          = ucpcore.Endpoint
)

const (
	MetaParam               = ucpcore.MetaParam
	DefaultMaxRequestMemory = ucpcore.DefaultMaxRequestMemory
)

var (
	NewBudget             = ucpcore.NewBudget
	WithBudget            = ucpcore.WithBudget
	ToolCharged           = ucpcore.ToolCharged
	Argument              = ucpcore.Argument
	ArgumentErrors        = ucpcore.ArgumentErrors
	SetMember             = ucpcore.SetMember
	BusinessProfile       = ucpcore.BusinessProfile
	ProfileHandler        = ucpcore.ProfileHandler
	WithSupportedVersions = ucpcore.WithSupportedVersions
	NewEndpoint           = ucpcore.NewEndpoint
	ErrInternal           = ucpcore.ErrInternal
)
