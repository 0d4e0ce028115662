package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.backend.vulkan.device.VulkanContext;

/** Workgroup counts for a 1-D range of work, folded into y when x would pass the device's limit. */
record Grid(int x, int y) {
    static Grid of(long groups, VulkanContext ctx) {
        long maxX = Math.min(ctx.limits.maxGroupCount()[0], 65535);
        if (groups <= maxX) return new Grid((int) Math.max(1, groups), 1);
        long y = (groups + maxX - 1) / maxX;
        if (y > ctx.limits.maxGroupCount()[1])
            throw new IllegalArgumentException(groups + " workgroups exceed what one dispatch can hold");
        return new Grid((int) maxX, (int) y);
    }

    /** Groups of {@code local} invocations covering {@code n} items. */
    static Grid covering(long n, int local, VulkanContext ctx) {
        return of((n + local - 1) / local, ctx);
    }
}
