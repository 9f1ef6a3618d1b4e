//! Adreno a6xx/a7xx register database and PM4 packets, generated from a declarative source
