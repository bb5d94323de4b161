import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

// The random inputs (`tag()`, `tags()`, `typeIndices()`) and the comparison helpers
// (`handles`, `typeGroups`, `conformanceKey`) live in RelativeViewFixtures (CoreVsNaive.swift),
// shared with the differential fuzz target and the soak.
