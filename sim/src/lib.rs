//! A functional model of an Adreno a6xx/a7xx GPU
