import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { describeReasons } from '../failure-test-reasons';
import { failure } from './depot-import-failure';

describeReasons('geodata-depot-import', failure, en, de);
