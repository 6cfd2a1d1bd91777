package dev.junction.gateway.chat;

/**
 * One named Server-Sent Event, as the Anthropic Messages and OpenAI Responses streams
 * send them.
 *
 * @param name the event name, which is also the data's {@code type}
 * @param json the event's data
 */
public record SseEvent(String name, String json) {
}
