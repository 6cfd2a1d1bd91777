package dev.junction.gateway.provider;

import java.util.HashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamFactory;

/**
 * A request body as the client sent it, with where its one top-level {@code model} string
 * lies, so that an upstream that needs the body with another model gets the client's
 * bytes with that value replaced instead of the whole tree written again (for a large
 * prompt, most of the gateway's own time). Found only in a body whose top-level keys are
 * all distinct, so that the upstream reads the same fields the gateway routed, limited
 * and priced by.
 */
public final class ClientBytes {

	private final byte[] json;

	/** Offset of the model value's opening quote. */
	private final int start;

	/** Offset just after the model value's closing quote. */
	private final int end;

	private ClientBytes(byte[] json, int start, int end) {
		this.json = json;
		this.start = start;
		this.end = end;
	}

	/**
	 * The client's {@code json}, already parsed as a valid object, if it has exactly one
	 * top-level {@code model}, a string, and no top-level key twice; else null.
	 */
	public static @Nullable ClientBytes find(byte[] json, TokenStreamFactory factory) {
		try (JsonParser parser = factory.createParser(json)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return null;
			}
			Set<String> names = new HashSet<>();
			int start = -1;
			int end = -1;
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				if (!names.add(name)) {
					return null;
				}
				JsonToken value = parser.nextToken();
				if (name.equals("model")) {
					if (value != JsonToken.VALUE_STRING) {
						return null;
					}
					start = (int) parser.currentTokenLocation().getByteOffset();
					parser.getString();
					end = (int) parser.currentLocation().getByteOffset();
				}
				else {
					parser.skipChildren();
				}
			}
			if (start < 0 || end <= start || json[start] != '"' || json[end - 1] != '"') {
				return null;
			}
			return new ClientBytes(json, start, end);
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/**
	 * The client's bytes with {@code quotedModel} (a JSON string, quotes included) in
	 * place of its model.
	 */
	public byte[] withModel(byte[] quotedModel) {
		byte[] body = new byte[this.json.length - (this.end - this.start) + quotedModel.length];
		System.arraycopy(this.json, 0, body, 0, this.start);
		System.arraycopy(quotedModel, 0, body, this.start, quotedModel.length);
		System.arraycopy(this.json, this.end, body, this.start + quotedModel.length, this.json.length - this.end);
		return body;
	}

}
