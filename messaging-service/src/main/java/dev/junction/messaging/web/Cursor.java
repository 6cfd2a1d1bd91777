package dev.junction.messaging.web;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * A position in a list ordered by {@code (created_at, id)}, exchanged with clients as an
 * opaque string.
 *
 * @param createdAt timestamp of the last row returned
 * @param id id of the last row returned
 */
public record Cursor(Instant createdAt, UUID id) {

	private static final int LENGTH = 8 + 16;

	/** The opaque form. */
	public String encode() {
		long micros = Math.addExact(Math.multiplyExact(this.createdAt.getEpochSecond(), 1_000_000L),
				this.createdAt.getNano() / 1_000);
		ByteBuffer buffer = ByteBuffer.allocate(LENGTH)
			.putLong(micros)
			.putLong(this.id.getMostSignificantBits())
			.putLong(this.id.getLeastSignificantBits());
		return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
	}

	/** The cursor {@code value} encodes; 400 naming {@code cursor} when it is not one. */
	public static Cursor decode(String value) {
		byte[] bytes;
		try {
			bytes = Base64.getUrlDecoder().decode(value);
		}
		catch (IllegalArgumentException ex) {
			throw ApiException.invalid("cursor", "not a cursor returned by this API");
		}
		if (bytes.length != LENGTH) {
			throw ApiException.invalid("cursor", "not a cursor returned by this API");
		}
		ByteBuffer buffer = ByteBuffer.wrap(bytes);
		long micros = buffer.getLong();
		UUID id = new UUID(buffer.getLong(), buffer.getLong());
		Instant createdAt = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
				Math.floorMod(micros, 1_000_000L) * 1_000L);
		if (createdAt.isBefore(QueryParams.MIN) || createdAt.isAfter(QueryParams.MAX)) {
			throw ApiException.invalid("cursor", "not a cursor returned by this API");
		}
		return new Cursor(createdAt, id);
	}

}
