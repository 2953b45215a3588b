/**
 * English texts of the console's frame: error codes, the 404 and 403 pages, missing records.
 * Kept apart from en.ts so the frame's texts and the pages' texts are edited independently;
 * every key here exists in shell.zh-CN.ts too (a unit test checks).
 */
const shellEn = {
  errorCode: {
    40000: 'The request was not understood.',
    40001: 'Some fields need attention.',
    40002: 'The form does not match its flow; check the fields.',
    40003: 'A comment is required.',
    40100: 'Please sign in.',
    40101: 'Your session has expired; please sign in again.',
    40102: 'Your session has ended; please sign in again.',
    40103: 'Wrong username or password.',
    40104: 'A service could not be reached safely.',
    40105: 'No account is linked to this sign-in; link it from your profile first.',
    40300: 'You do not have permission to do this.',
    40301: 'This action is not allowed for you here.',
    40302: 'Change your password before you continue.',
    40400: 'Not found.',
    40800: 'The request took too long to arrive.',
    40900: 'This changed in the meantime; reload and try again.',
    40901: 'A request for this record is already running.',
    41300: 'What you sent is too large.',
    41400: 'The address is too long.',
    41500: 'The request was sent in a form the server does not take.',
    42900: 'Too many attempts; wait a moment and try again.',
    43100: 'The request was too large to read.',
    50000: 'Something went wrong on the server.',
    50200: 'An outside provider failed; try again later.',
    50300: 'The service is unavailable; try again later.',
    network: 'The server could not be reached.',
  },
  notFound: {
    title: 'Page not found',
    text: 'There is no page at this address.',
    home: 'Go to the dashboard',
    record: 'This record does not exist or you cannot see it.',
    back: 'Back to the list',
  },
  forbidden: {
    title: 'No access',
    text: 'You do not have permission to use this page.',
  },
  shell: {
    menu: 'Open the menu',
  },
};
export default shellEn;
