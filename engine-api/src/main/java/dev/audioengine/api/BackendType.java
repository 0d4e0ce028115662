package dev.audioengine.api;

import java.util.Locale;

/** The backend families a user can ask for. HIP is also spelled "rocm" on the command line. */
public enum BackendType {
    /** The host's processors, through the Vector API; always available. */
    CPU("cpu"),
    /** NVIDIA GPUs through the CUDA driver. */
    CUDA("cuda"),
    /** AMD GPUs through ROCm's HIP runtime; {@code rocm} on the command line means this too. */
    HIP("hip"),
    /** Any GPU with a Vulkan 1.1 or newer driver. */
    VULKAN("vulkan"),
    /** Apple GPUs; a name users can ask for, with no backend shipped yet, so selecting it says it is not installed. */
    METAL("metal"),
    /** Not a backend: asks the registry for the best available device (discrete GPU, then integrated, then CPU). */
    BEST_AVAILABLE("best");

    /** Every spelling {@link #parse} accepts, for error messages and help. */
    public static final String VALID_NAMES = "cpu, cuda, hip, rocm, vulkan, metal, best";

    private final String cliName;

    BackendType(String cliName) {
        this.cliName = cliName;
    }

    /**
     * The name used on the command line and in JSON ({@code rocm} parses to HIP but prints as hip).
     *
     * @return the lower-case name, e.g. {@code "cuda"}
     */
    public String cliName() {
        return cliName;
    }

    /**
     * The type a user named, as {@code --backend} takes it.
     *
     * @param name one of {@link #VALID_NAMES}, in any case, surrounding space ignored
     * @return the type; {@code rocm} gives {@link #HIP}
     * @throws IllegalArgumentException if the name is null or unknown; the message lists the valid names
     */
    public static BackendType parse(String name) {
        if (name == null) throw new IllegalArgumentException("no backend name given; valid: " + VALID_NAMES);
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("rocm")) return HIP;
        for (BackendType t : values()) if (t.cliName.equals(n)) return t;
        throw new IllegalArgumentException("unknown backend '" + name + "'; valid: " + VALID_NAMES);
    }
}
