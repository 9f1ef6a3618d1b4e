//! freedreno .rd trace format: reader and writer
