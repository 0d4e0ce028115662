package dev.audioengine.gpu;

/** What an op's support depends on besides the node: the opened device's limits, read once at open. */
record DeviceLimits(int maxSharedPerBlock) {}
