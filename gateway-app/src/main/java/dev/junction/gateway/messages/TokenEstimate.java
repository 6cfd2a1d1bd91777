package dev.junction.gateway.messages;

import tools.jackson.databind.JsonNode;

/**
 * A rough count of a Messages request's input tokens, for providers that cannot count
 * them: a token per four characters of text, tool inputs, tool results and tool
 * definitions, four per message, and 1600 per image or PDF document (the most an image
 * costs on Anthropic's models).
 */
final class TokenEstimate {

	private static final int PER_MESSAGE = 4;

	private static final int PER_ATTACHMENT = 1600;

	private TokenEstimate() {
	}

	static long of(JsonNode body) {
		long[] chars = { 0 };
		long tokens = 0;
		tokens += content(body.get("system"), chars);
		for (JsonNode message : body.path("messages")) {
			tokens += PER_MESSAGE + content(message.get("content"), chars);
		}
		for (JsonNode tool : body.path("tools")) {
			chars[0] += tool.toString().length();
		}
		return tokens + (chars[0] + 3) / 4;
	}

	/** Attachment tokens of some content; its characters are added to {@code chars}. */
	private static long content(JsonNode content, long[] chars) {
		if (content == null || content.isNull()) {
			return 0;
		}
		if (content.isString()) {
			chars[0] += content.stringValue().length();
			return 0;
		}
		long tokens = 0;
		for (JsonNode block : content) {
			switch (block.path("type").asString("")) {
				case "text" -> chars[0] += block.path("text").asString("").length();
				case "image" -> tokens += PER_ATTACHMENT;
				case "document" -> {
					if ("text".equals(block.path("source").path("type").asString(null))) {
						chars[0] += block.path("source").path("data").asString("").length();
					}
					else {
						tokens += PER_ATTACHMENT;
					}
				}
				case "tool_use" ->
					chars[0] += block.path("name").asString("").length() + block.path("input").toString().length();
				case "tool_result" -> tokens += content(block.get("content"), chars);
				default -> chars[0] += block.toString().length();
			}
		}
		return tokens;
	}

}
