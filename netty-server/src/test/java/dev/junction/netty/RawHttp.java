package dev.junction.netty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 written and read byte by byte on a plain socket, as a client sends it. */
final class RawHttp {

	private RawHttp() {
	}

	static void send(Socket socket, String text) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(text.getBytes(StandardCharsets.ISO_8859_1));
		out.flush();
	}

	/** Status line, headers and the body announced by {@code Content-Length}. */
	static String readResponse(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int next = in.read();
			if (next < 0) {
				throw new IOException("closed after " + head.size() + " bytes: " + head);
			}
			head.write(next);
		}
		String headers = head.toString(StandardCharsets.ISO_8859_1);
		int length = 0;
		for (String line : headers.split("\r\n")) {
			if (line.toLowerCase().startsWith("content-length:")) {
				length = Integer.parseInt(line.substring("content-length:".length()).strip());
			}
		}
		return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
	}

}
