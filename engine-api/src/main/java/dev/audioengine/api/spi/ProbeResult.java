package dev.audioengine.api.spi;

import java.util.List;

/**
 * What a probe found. {@code reason} says, when unavailable, what was tried and what to do;
 * when available it may carry a note (the runtime version, for instance) or be null.
 *
 * @param available whether the backend can be opened on this machine
 * @param reason why not and what to do when unavailable (never blank then); when available an optional note, or null
 * @param devices the devices found, indexed as {@link BackendProvider#open} takes them; copied, empty when unavailable
 */
public record ProbeResult(boolean available, String reason, List<DeviceInfo> devices) {
    /**
     * Copies the devices and checks that an unavailable result says why.
     *
     * @param available whether the backend can be opened
     * @param reason required (not blank) when unavailable; a note or null when available
     * @param devices the devices found; copied
     * @throws IllegalArgumentException if an unavailable result has no reason
     * @throws NullPointerException if devices is null or holds null
     */
    public ProbeResult {
        devices = List.copyOf(devices);
        if (!available && (reason == null || reason.isBlank())) {
            throw new IllegalArgumentException("an unavailable backend must say why");
        }
    }

    /**
     * A backend that can be used.
     *
     * @param devices the devices found, in the backend's index order; an empty list means usable but with nothing to
     *     open
     * @param note a note for listings (the runtime version, say), or null
     * @return an available result with a copy of the devices
     */
    public static ProbeResult available(List<DeviceInfo> devices, String note) {
        return new ProbeResult(true, note, devices);
    }

    /**
     * A backend that cannot be used here.
     *
     * @param reason what was tried and what the user can do (install a driver, set a library path); shown as it is
     * @return the result, with no devices
     * @throws IllegalArgumentException if the reason is null or blank
     */
    public static ProbeResult unavailable(String reason) {
        return new ProbeResult(false, reason, List.of());
    }
}
