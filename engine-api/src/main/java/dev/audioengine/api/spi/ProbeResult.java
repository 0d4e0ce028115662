package dev.audioengine.api.spi;

import java.util.List;

/**
 * What a probe found. {@code reason} says, when unavailable, what was tried and what to do;
 * when available it may carry a note (the runtime version, for instance) or be null.
 */
public record ProbeResult(boolean available, String reason, List<DeviceInfo> devices) {
    public ProbeResult {
        devices = List.copyOf(devices);
        if (!available && (reason == null || reason.isBlank())) {
            throw new IllegalArgumentException("an unavailable backend must say why");
        }
    }

    public static ProbeResult available(List<DeviceInfo> devices, String note) {
        return new ProbeResult(true, note, devices);
    }

    public static ProbeResult unavailable(String reason) {
        return new ProbeResult(false, reason, List.of());
    }
}
