package dev.junction.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests no client library would send (stalled,
 * oversized, cut short), and to read trailers.
 */
public final class RawHttp implements AutoCloseable {

	private final Socket socket;

	private RawHttp(Socket socket) {
		this.socket = socket;
	}

	public static RawHttp connect(int port) throws IOException {
		Socket socket = new Socket("127.0.0.1", port);
		socket.setSoTimeout(15_000);
		return new RawHttp(socket);
	}

	/**
	 * POSTs {@code json} on a connection of its own, saying it takes trailers, and reads
	 * the chunked answer.
	 */
	public static Chunked postForTrailers(int port, String path, String authorization, String json) {
		try (RawHttp http = connect(port)) {
			return http
				.send("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
						+ "TE: trailers\r\nAuthorization: " + authorization + "\r\nContent-Length: "
						+ json.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + json)
				.readChunked();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	public RawHttp send(String text) throws IOException {
		this.socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
		this.socket.getOutputStream().flush();
		return this;
	}

	/** Reads one response with a {@code Content-Length}. */
	public Response read() throws IOException {
		InputStream in = this.socket.getInputStream();
		String[] lines = head(in).split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		Map<String, String> headers = fields(lines, 1);
		int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
		byte[] body = in.readNBytes(length);
		return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
	}

	/**
	 * Reads one response with {@code Transfer-Encoding: chunked}, and the trailer fields
	 * after its last chunk.
	 */
	public Chunked readChunked() throws IOException {
		InputStream in = this.socket.getInputStream();
		String[] lines = head(in).split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		Map<String, String> headers = fields(lines, 1);
		if (!"chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
			throw new IOException("not a chunked response: " + headers);
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
			body.write(in.readNBytes(size));
			line(in);
		}
		StringBuilder trailer = new StringBuilder();
		for (String field = line(in); !field.isEmpty(); field = line(in)) {
			trailer.append(field).append("\r\n");
		}
		return new Chunked(status, headers, body.toString(StandardCharsets.UTF_8),
				fields(trailer.toString().split("\r\n"), 0));
	}

	private static int chunkSize(InputStream in) throws IOException {
		String line = line(in);
		int extension = line.indexOf(';');
		return Integer.parseInt((extension >= 0) ? line.substring(0, extension) : line, 16);
	}

	/** One line without its CRLF. */
	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		while (!line.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("connection closed in a line: " + line.toString(StandardCharsets.ISO_8859_1));
			}
			line.write(b);
		}
		String text = line.toString(StandardCharsets.ISO_8859_1);
		return text.substring(0, text.length() - 2);
	}

	private static String head(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("connection closed after " + head.size() + " bytes of headers");
			}
			head.write(b);
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

	/** Header fields from {@code lines[from]} on, names in lower case. */
	private static Map<String, String> fields(String[] lines, int from) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (int i = from; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				fields.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).trim());
			}
		}
		return fields;
	}

	/**
	 * Whether the server closes the connection within {@code wait}, sending nothing more.
	 */
	public boolean closedWithin(Duration wait) throws IOException {
		this.socket.setSoTimeout(Math.toIntExact(wait.toMillis()));
		try {
			return this.socket.getInputStream().read() < 0;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * A response.
	 *
	 * @param status the status code
	 * @param headers the headers, names in lower case
	 * @param body the body
	 */
	public record Response(int status, Map<String, String> headers, String body) {
	}

	/**
	 * A chunked response.
	 *
	 * @param status the status code
	 * @param headers the headers, names in lower case
	 * @param body the body, its chunks joined
	 * @param trailers the trailer fields after the last chunk, names in lower case
	 */
	public record Chunked(int status, Map<String, String> headers, String body, Map<String, String> trailers) {
	}

}
