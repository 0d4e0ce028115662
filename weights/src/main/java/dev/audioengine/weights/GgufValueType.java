package dev.audioengine.weights;

/** GGUF metadata value types, with their ids in the file and their fixed widths (0 = variable). */
enum GgufValueType {
    UINT8(0, 1),
    INT8(1, 1),
    UINT16(2, 2),
    INT16(3, 2),
    UINT32(4, 4),
    INT32(5, 4),
    FLOAT32(6, 4),
    BOOL(7, 1),
    STRING(8, 0),
    ARRAY(9, 0),
    UINT64(10, 8),
    INT64(11, 8),
    FLOAT64(12, 8);

    private static final GgufValueType[] BY_ID = new GgufValueType[13];

    static {
        for (GgufValueType t : values()) BY_ID[t.id] = t;
    }

    final int id;
    /** Bytes of one value, or 0 for STRING and ARRAY. */
    final int width;

    GgufValueType(int id, int width) {
        this.id = id;
        this.width = width;
    }

    /** Smallest number of bytes a value of this type takes in the file (used to bound counts). */
    int minBytes() {
        return switch (this) {
            case STRING -> 8; // u64 length
            case ARRAY -> 12; // u32 element type + u64 length
            default -> width;
        };
    }

    static GgufValueType byId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }
}
