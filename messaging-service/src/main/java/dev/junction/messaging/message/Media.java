package dev.junction.messaging.message;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A reference to media stored elsewhere; the service stores the reference, not the bytes.
 *
 * @param url where the media is
 * @param mimeType its media type
 */
public record Media(@NotBlank @Size(max = 2048) @Pattern(regexp = "(?i)(https?|s3|gs|media)://\\S+") String url,
		@Size(max = 100) String mimeType) {
}
