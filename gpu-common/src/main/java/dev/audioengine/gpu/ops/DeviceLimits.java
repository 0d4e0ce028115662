package dev.audioengine.gpu.ops;

/** What an op's support depends on besides the node: the opened device's limits, read once at open. */
public record DeviceLimits(int maxSharedPerBlock) {}
