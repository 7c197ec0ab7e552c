package negotiation

import (
	"maps"
	"slices"
)

// Intersect computes the active capability set from the Business's and the
// Platform's capability registries, following UCP's intersection algorithm so
// every response advertises only what both sides can use:
//
//  1. keep the Business capabilities whose name the Platform also lists;
//  2. per capability, take the highest version present in both arrays
//     (versions are YYYY-MM-DD, so string order is date order; compatibility
//     is exact equality, never "older is fine"); drop the capability when no
//     version is shared;
//  3. drop extensions (entries with extends) none of whose parents remain, and
//     repeat until nothing changes, so an extension of a pruned extension goes
//     too.
//
// The extends list that counts is the one on the Business's entry for the
// selected version. UCP keeps a multi-parent extension when at least one
// parent remains. Beyond the letter of step 3, an extension must also be
// anchored: it survives only when a chain of surviving parents leads to a root
// capability (one without extends), so extensions that only extend each other
// in a cycle, or extend themselves, are pruned rather than activated with no
// base. For acyclic registries this is exactly the repeated pruning of step 3.
//
// The result maps each active name to the selected entry. It does not depend
// on map iteration order, and the inputs are not modified.
func Intersect(business, platform map[string][]CapabilityVersion) map[string]CapabilityVersion {
	selected := make(map[string]CapabilityVersion)
	for name, offered := range business {
		theirs, ok := platform[name]
		if !ok {
			continue
		}
		if best, ok := highestCommon(offered, theirs); ok {
			selected[name] = best
		}
	}

	// Anchored survivors: start from the roots, then admit an extension as soon
	// as one of its parents is admitted, until no more can be admitted.
	active := make(map[string]bool, len(selected))
	for name, cv := range selected {
		if len(cv.Extends) == 0 {
			active[name] = true
		}
	}
	names := slices.Sorted(maps.Keys(selected))
	for changed := true; changed; {
		changed = false
		for _, name := range names {
			if active[name] {
				continue
			}
			for _, parent := range selected[name].Extends {
				if parent != name && active[parent] {
					active[name] = true
					changed = true
					break
				}
			}
		}
	}

	out := make(map[string]CapabilityVersion, len(active))
	for name := range active {
		cv := selected[name]
		if cv.Extends != nil {
			cv.Extends = append(Parents(nil), cv.Extends...)
		}
		out[name] = cv
	}
	return out
}

// highestCommon returns the Business entry with the highest version that the
// Platform also lists. When the Business lists the same version twice, the
// first entry wins so the choice is stable.
func highestCommon(business, platform []CapabilityVersion) (CapabilityVersion, bool) {
	theirs := make(map[string]bool, len(platform))
	for _, cv := range platform {
		theirs[cv.Version] = true
	}
	var best CapabilityVersion
	found := false
	for _, cv := range business {
		if !theirs[cv.Version] {
			continue
		}
		if !found || cv.Version > best.Version {
			best = cv
			found = true
		}
	}
	return best, found
}

// Relevant narrows an active set to what a response for one root capability
// may advertise: the root itself plus every active extension that reaches it
// through its extends chain. UCP asks Businesses to list only capabilities
// relevant to the operation, so a search_locations response names the search
// capability and its extensions, not lookup.
func Relevant(active map[string]CapabilityVersion, root string) map[string]CapabilityVersion {
	out := make(map[string]CapabilityVersion)
	if _, ok := active[root]; !ok {
		return out
	}
	in := map[string]bool{root: true}
	names := slices.Sorted(maps.Keys(active))
	for changed := true; changed; {
		changed = false
		for _, name := range names {
			if in[name] {
				continue
			}
			for _, parent := range active[name].Extends {
				if in[parent] {
					in[name] = true
					changed = true
					break
				}
			}
		}
	}
	for name := range in {
		out[name] = active[name]
	}
	return out
}
