import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

// The benchmark's third side: stock @apollo/gateway (its RemoteGraphQLDataSource over HTTP) in Apollo Server's
// standalone HTTP server, with their defaults, over the supergraph file given as argument. Prints `serving on <url>`.
const supergraphSdl = readFileSync(process.argv[2]!, 'utf8');
const server = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl }) });
const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
process.stdout.write(`serving on ${url.replace(/\/$/, '')}\n`);
const stop = () => void server.stop().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
